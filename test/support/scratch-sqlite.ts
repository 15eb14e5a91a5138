import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../config/data-source-options';
import { runPendingMigrations } from '../../config/run-migrations';
import { ChangeLog } from '../../src/change-log/change-log.repository';
import { databaseConfig } from '../../src/database/database.config';
import { Database } from '../../src/database/database.service';
import type { SnapshotReader } from '../../src/database/snapshot-reader';
import { buildNewProject } from '../../src/projects/project-defaults';
import type { Project } from '../../src/projects/entities/project.entity';
import { ProjectsRepository } from '../../src/projects/projects.repository';
import { ProjectScope } from '../../src/project-scope/project-scope.repository';
import { createSqliteDatabase, type TestDatabase } from './test-database';

/**
 * A migrated SQLite database in a temporary folder, for a repository's
 * unit spec: the repository runs its own SQL on it, as in the app.
 */
export interface ScratchSqlite {
  dataSource: DataSource;
  db: Database;
  changeLog: ChangeLog;
  scope: ProjectScope;
  /** Inserts a project with its default sections and agents. */
  insertProject(userId?: string, name?: string): Promise<Project>;
  close(): Promise<void>;
}

export async function openScratchSqlite(): Promise<ScratchSqlite> {
  const database: TestDatabase = createSqliteDatabase();
  const config = databaseConfig({ DATABASE_URL: database.url }).connection;
  const dataSource = new DataSource(buildDataSourceOptions(config));
  await dataSource.initialize();
  await runPendingMigrations(dataSource);
  const db = new Database(dataSource);
  const changeLog = new ChangeLog(db, dataSource);
  const scope = new ProjectScope(changeLog, db);
  const projects = new ProjectsRepository(
    db,
    undefined as unknown as SnapshotReader,
    scope,
    changeLog,
  );
  return {
    dataSource,
    db,
    changeLog,
    scope,
    insertProject: async (userId = 'user-1', name = 'Acme') => {
      const project = buildNewProject({ name, userId });
      await db.transaction((transaction) =>
        projects.insertNew(transaction, project),
      );
      return project;
    },
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
