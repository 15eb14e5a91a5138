import { Injectable, Logger } from '@nestjs/common';

/** A task that reached an end (or gave up an attempt) in this process. */
export interface SettledTask {
  taskId: string;
  projectId?: string;
}

/**
 * Tells whoever listens (a run whose step the task does) that a task of
 * this process settled: the worker that settled it, or the API that
 * cancelled it. In-process only; listeners must not rely on hearing every
 * settle (another replica's are not heard) and so sweep as well. Tasks
 * know no listener: they register themselves, so this module imports none
 * of them.
 */
@Injectable()
export class TaskSettlements {
  private readonly logger = new Logger(TaskSettlements.name);
  private readonly listeners = new Set<(task: SettledTask) => void>();

  listen(listener: (task: SettledTask) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  settled(task: SettledTask): void {
    for (const listener of this.listeners) {
      try {
        listener(task);
      } catch (error) {
        this.logger.error(
          `A listener of settled tasks failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
