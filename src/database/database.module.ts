import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ConfigType } from '@nestjs/config';
import { databaseConfig, type DatabaseConfig } from './database.config';
import { buildDataSourceOptions } from '../../config/data-source-options';
import { Database } from './database.service';
import { MigrationsOnStartup } from './migrations-on-startup';
import {
  createScratchDatabaseFile,
  removeScratchDatabase,
} from './scratch-database';
import { SnapshotReader } from './snapshot-reader';

/** file::memory: becomes a private scratch file (see scratch-database.ts). */
const withScratchFile = (database: DatabaseConfig): DatabaseConfig =>
  database.type === 'sqlite' && database.file === ':memory:'
    ? { type: 'sqlite', file: createScratchDatabaseFile() }
    : database;

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [databaseConfig.KEY],
      useFactory: (config: ConfigType<typeof databaseConfig>) => ({
        ...buildDataSourceOptions(withScratchFile(config.connection)),
        // Fail start-up at once; the orchestrator restarts the process.
        retryAttempts: 0,
      }),
    }),
  ],
  providers: [Database, MigrationsOnStartup, SnapshotReader],
  exports: [Database, SnapshotReader],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationShutdown(): void {
    // Open connections keep working on the removed files until they close.
    removeScratchDatabase(String(this.dataSource.options.database));
  }
}
