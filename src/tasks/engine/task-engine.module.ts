import { Module } from '@nestjs/common';
import { EmbeddedTaskEngine } from './embedded-task-engine';
import { TaskEngine } from './task-engine';
import { TaskScheduleRepository } from './task-schedule.repository';

/** The engine that delivers tasks to this process's workers. */
@Module({
  providers: [
    TaskScheduleRepository,
    EmbeddedTaskEngine,
    { provide: TaskEngine, useExisting: EmbeddedTaskEngine },
  ],
  exports: [TaskEngine],
})
export class TaskEngineModule {}
