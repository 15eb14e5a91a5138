import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DevImageApi, Replies } from '../support/fake-image-api';
import { ServerProcess, startServer } from '../support/server-process';
import { createPostgresDatabase, TestDatabase } from '../support/test-database';

/** A small real PNG (1x1, opaque red). */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

const getBytes = (baseUrl: string, path: string) =>
  request(baseUrl)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** Two replicas (built server processes) sharing one PostgreSQL database. */
describe('PostgreSQL: a hosted logo is served by every replica', () => {
  let database: TestDatabase;
  let api: DevImageApi;
  let a: ServerProcess;
  let b: ServerProcess;
  const cwd = mkdtempSync(join(tmpdir(), 'workspace-hosted-logos-'));

  beforeAll(async () => {
    database = await createPostgresDatabase();
    api = await DevImageApi.start();
    const env = {
      DATABASE_URL: database.url,
      IMAGE_API_KEY: 'sk-replicas',
      IMAGE_API_URL: api.url,
      IMAGE_MODEL: 'gpt-image-2',
      LOGO_URL_TTL_S: '3',
    };
    a = await startServer(env, { cwd });
    b = await startServer(env, { cwd });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await api?.close();
    await database?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('a logo generated through one replica is served, byte for byte, by the other until its TTL, then 404 on both', async () => {
    api.respondNext(Replies.base64(TINY_PNG));
    const generated = await request(a.baseUrl)
      .post('/api/ai/generate-logo')
      .send({
        projectId: 'p1',
        companyName: 'Replica Co',
        style: 'modern',
        colors: ['teal'],
      })
      .expect(200);
    expect(api.requests[0].body).not.toHaveProperty('response_format');
    const { logoUrl } = generated.body as { logoUrl: string };
    // The URL names replica A's address; the path is what every replica serves.
    expect(logoUrl.startsWith(a.baseUrl)).toBe(true);
    const path = new URL(logoUrl).pathname;
    const fromB = await getBytes(b.baseUrl, path).expect(200);
    expect(fromB.headers['content-type']).toBe('image/png');
    expect((fromB.body as Buffer).equals(TINY_PNG)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 3100));
    for (const replica of [a, b]) {
      const gone = await request(replica.baseUrl).get(path).expect(404);
      expect(gone.body).toEqual({
        success: false,
        error: 'Logo not found',
        code: expect.any(String),
      });
    }
  });
});
