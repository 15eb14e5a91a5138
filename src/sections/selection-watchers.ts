import { Injectable, Logger } from '@nestjs/common';

/**
 * Tells whoever listens (the runs of the project) that a section's chosen
 * result changed, once the change has committed. In-process only: what
 * listens sweeps too. Sections know no listener (they register
 * themselves), so this folder imports none of the features that listen.
 */
@Injectable()
export class SelectionWatchers {
  private readonly logger = new Logger(SelectionWatchers.name);
  private readonly listeners = new Set<(projectId: string) => void>();

  listen(listener: (projectId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(projectId: string): void {
    for (const listener of this.listeners) {
      try {
        listener(projectId);
      } catch (error) {
        this.logger.error(
          `A listener of selections failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
