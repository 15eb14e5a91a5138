import { Module } from '@nestjs/common';
import {
  databaseConfig,
  type DatabaseSettings,
} from '../../database/database.config';
import { ConfigurationError } from '../../environment/env-values';
import { tasksConfig, type TasksConfig } from '../tasks.config';
import { EmbeddedTaskEngine } from './embedded-task-engine';
import { PgBossTaskEngine } from './pg-boss-task-engine';
import { TaskEngine } from './task-engine';
import { TaskScheduleRepository } from './task-schedule.repository';

/**
 * The engine that delivers tasks to this process's workers: TASK_ENGINE,
 * or by the database (auto): embedded on SQLite, pg-boss on PostgreSQL.
 */
@Module({
  providers: [
    TaskScheduleRepository,
    EmbeddedTaskEngine,
    {
      provide: TaskEngine,
      inject: [databaseConfig.KEY, tasksConfig.KEY, EmbeddedTaskEngine],
      useFactory: (
        database: DatabaseSettings,
        tasks: TasksConfig,
        embedded: EmbeddedTaskEngine,
      ): TaskEngine => {
        const { connection } = database;
        const engine =
          tasks.engine === 'auto'
            ? connection.type === 'postgres'
              ? 'pg-boss'
              : 'embedded'
            : tasks.engine;
        if (engine === 'embedded') return embedded;
        if (connection.type !== 'postgres') {
          throw new ConfigurationError(
            'TASK_ENGINE',
            'pg-boss needs a PostgreSQL DATABASE_URL',
          );
        }
        return new PgBossTaskEngine(connection, tasks);
      },
    },
  ],
  exports: [TaskEngine],
})
export class TaskEngineModule {}
