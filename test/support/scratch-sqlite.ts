import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../config/data-source-options';
import { runPendingMigrations } from '../../config/run-migrations';
import { ChangeLog } from '../../src/change-log/change-log.repository';
import type { AssetRecord } from '../../src/assets/dto/asset.dto';
import { newId } from '../../src/common/ids';
import { databaseConfig } from '../../src/database/database.config';
import {
  Database,
  type Transaction,
} from '../../src/database/database.service';
import type { SnapshotReader } from '../../src/database/snapshot-reader';
import { buildNewProject } from '../../src/projects/project-defaults';
import type { Project } from '../../src/projects/entities/project.entity';
import { ProjectsRepository } from '../../src/projects/projects.repository';
import { ProjectNotFoundException } from '../../src/project-scope/project-scope.errors';
import { ProjectScope } from '../../src/project-scope/project-scope.repository';
import type { NewTask } from '../../src/tasks/tasks.repository';
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
  /**
   * Work in a transaction that moves the project's version first, as the
   * services do (the change log refuses events of a change that does not).
   */
  changing<T>(
    projectId: string,
    work: (transaction: Transaction) => Promise<T>,
  ): Promise<T>;
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
    changing: (projectId, work) =>
      db.transaction(async (transaction) => {
        await scope.advance(transaction, {
          projectId,
          missing: () => new ProjectNotFoundException(),
        });
        return work(transaction);
      }),
    close: async () => {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

/** A kept PNG logo of the project's LOGO section; `fields` replace its own. */
export function logoAssetRecord(
  project: Project,
  fields: Partial<AssetRecord> = {},
): AssetRecord {
  return {
    id: newId(),
    projectId: project.id,
    sectionId: project.sections.find((s) => s.type === 'LOGO')!.id,
    kind: 'logo',
    contentType: 'image/png',
    byteSize: 3,
    sha256: 'a'.repeat(64),
    prompt: 'a logo',
    model: 'image-model',
    createdAt: new Date().toISOString(),
    fileName: 'logo.png',
    width: null,
    height: null,
    ...fields,
  };
}

/** A new logo task of the project, placed nowhere; `fields` replace its own. */
export function newLogoTask(
  projectId: string,
  fields: Partial<NewTask> = {},
): NewTask {
  return {
    id: newId(),
    projectId,
    type: 'logo',
    agentId: null,
    sectionId: null,
    input: {},
    createdAt: new Date(),
    queuePlace: 0,
    total: 1,
    ...fields,
  };
}
