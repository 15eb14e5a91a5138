import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { appConfig } from '../../config/app.config';
import { buildDataSourceOptions } from '../../config/data-source-options';
import type { AppConfig } from '../../config/environment';
import { Database } from './database.service';
import { MigrationsOnStartup } from './migrations-on-startup';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database),
        // Fail start-up at once; the orchestrator restarts the process.
        retryAttempts: 0,
      }),
    }),
  ],
  providers: [Database, MigrationsOnStartup],
  exports: [Database],
})
export class DatabaseModule {}
