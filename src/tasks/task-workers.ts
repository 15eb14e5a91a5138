import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { TaskEngine } from './engine/task-engine';
import { TaskRunner } from './task-runner';
import { tasksConfig, type TasksConfig } from './tasks.config';

/**
 * This process's workers: started once the app is up, unless it only
 * serves the API (PROCESS_ROLE=api); stopped before the database closes,
 * their tasks in hand given back for another worker.
 */
@Injectable()
export class TaskWorkers
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  constructor(
    private readonly engine: TaskEngine,
    private readonly runner: TaskRunner,
    @Inject(tasksConfig.KEY) private readonly config: TasksConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.role === 'api') return;
    await this.engine.startWorkers(this.runner.handle, this.config.concurrency);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.engine.stop();
  }
}
