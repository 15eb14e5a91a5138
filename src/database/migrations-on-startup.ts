import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ConfigType } from '@nestjs/config';
import { databaseConfig } from './database.config';
import { runPendingMigrations } from '../../config/run-migrations';

/**
 * MIGRATIONS_RUN=true (the default): pending migrations are applied while
 * the app initialises, before it listens. Deployments that migrate in a
 * separate step (`npm run migration:run`) set MIGRATIONS_RUN=false.
 */
@Injectable()
export class MigrationsOnStartup implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(databaseConfig.KEY)
    private readonly config: ConfigType<typeof databaseConfig>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.migrationsRun) return;
    const applied = await runPendingMigrations(this.dataSource);
    if (applied.length > 0) {
      this.logger.log(`Applied ${applied.join(', ')}`);
    }
  }
}
