import { createHash } from 'node:crypto';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids';
import { Asset, Task } from '../../src/projects/entities';
import type { TestApp } from './test-app';

export interface ProjectBody {
  id: string;
  name: string;
  description: string | null;
  userId: string;
  createdAt: string;
  updatedAt: string;
  sections: Array<{ id: string; type: string; status: string }>;
  agents: Array<{ id: string; name: string; type: string; provider: string }>;
}

/** Creates a project through the API and returns its body. */
export async function createProject(
  t: TestApp,
  input: { name?: string; description?: string; userId?: string } = {},
): Promise<ProjectBody> {
  const response = await request(t.server)
    .post('/api/projects')
    .send({ name: 'Project', userId: 'user-1', ...input })
    .expect(201);
  return (response.body as { project: ProjectBody }).project;
}

/**
 * A finished task, inserted directly (for suites about reading projects,
 * which need tasks without running them); `label` is kept in its input.
 */
export async function insertTask(
  dataSource: DataSource,
  projectId: string,
  createdAt: Date,
  label = 'Task',
): Promise<Task> {
  return dataSource.getRepository(Task).save({
    id: newId(),
    projectId,
    sectionId: null,
    agentId: null,
    type: 'marketing-copy',
    status: 'SUCCEEDED',
    input: JSON.stringify({ label }),
    assetIds: '[]',
    error: null,
    attempts: 1,
    createdAt,
    startedAt: createdAt,
    finishedAt: createdAt,
    updatedAt: createdAt,
    runAfter: createdAt,
    leaseUntil: null,
  });
}

/**
 * An asset row with its bytes in asset_contents, as a kept logo has them
 * with ASSET_STORE=database (for suites about reading projects, which
 * need assets without generating logos).
 */
export async function insertAsset(
  dataSource: DataSource,
  projectId: string,
  sectionId: string | null,
  prompt = 'A logo',
): Promise<Asset> {
  const bytes = Buffer.from(prompt);
  const asset = await dataSource.getRepository(Asset).save({
    id: newId(),
    projectId,
    sectionId,
    kind: 'logo' as const,
    contentType: 'image/png',
    byteSize: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    prompt,
    model: 'gpt-image-2',
    createdAt: new Date(),
  });
  await dataSource.query(
    dataSource.options.type === 'postgres'
      ? 'INSERT INTO "asset_contents" ("assetId", "part", "bytes") VALUES ($1, 0, $2)'
      : 'INSERT INTO "asset_contents" ("assetId", "part", "bytes") VALUES (?, 0, ?)',
    [asset.id, bytes],
  );
  return asset;
}

export function countRows(
  dataSource: DataSource,
  table: string,
  projectId: string,
): Promise<number> {
  return dataSource
    .createQueryBuilder()
    .from(table, 'row')
    .where('row.projectId = :projectId', { projectId })
    .getCount();
}
