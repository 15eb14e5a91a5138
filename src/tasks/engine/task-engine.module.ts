import { Injectable, Module } from '@nestjs/common';
import type { Transaction } from '../../database/database.service';
import { TaskEngine, type TaskHandler } from './task-engine';

/** Placeholder until the engines land: queues nothing. */
@Injectable()
class NoEngine extends TaskEngine {
  async enqueue(_transaction: Transaction, _taskId: string): Promise<void> {}
  async startWorkers(
    _handler: TaskHandler,
    _concurrency: number,
  ): Promise<void> {}
  async forget(_taskId: string): Promise<void> {}
  async stop(): Promise<void> {}
}

@Module({
  providers: [{ provide: TaskEngine, useClass: NoEngine }],
  exports: [TaskEngine],
})
export class TaskEngineModule {}
