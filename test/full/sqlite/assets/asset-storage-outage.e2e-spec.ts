import request from 'supertest';
import { keepLogo, LOGO_REQUEST } from '../../../support/asset-client';
import { DevImageApi } from '../../../support/fake-image-api';
import { s3Env } from '../../../support/asset-stores';
import { createProject } from '../../../support/project-fixtures';
import {
  S3_SERVER_CREDENTIALS,
  startS3Server,
  type S3Server,
} from '../../../support/s3-server';
import { TcpProxy } from '../../../support/tcp-proxy';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Kept logos when the bucket fails: a bucket that accepts connections and
 * never answers, or refuses them. Storage failures are 503s with
 * Retry-After within ASSET_S3_REQUEST_TIMEOUT_MS, the image model is not
 * paid for a bucket known to be down, a retry with the same
 * Idempotency-Key does not pay again, and readiness (not liveness) says so.
 */
const REQUEST_TIMEOUT_MS = 1000;

/** The in-server duration of the slowest answer with this status, from /metrics. */
async function slowestBucket(t: TestApp, route: string, status: number) {
  const text = (await request(t.server).get('/metrics').expect(200)).text;
  const lines = text
    .split('\n')
    .filter(
      (line) =>
        line.startsWith('http_request_duration_seconds_bucket') &&
        line.includes(`route="${route}"`) &&
        line.includes(`status_code="${status}"`),
    );
  const total = Number(
    lines.find((l) => l.includes('le="+Inf"'))!.split(' ')[1],
  );
  // The smallest bucket holding every such answer.
  const holding = lines.find((l) => Number(l.split(' ')[1]) === total)!;
  return Number(/le="([^"]+)"/.exec(holding)![1]);
}

describe('Kept logos when the bucket fails (ASSET_STORE=s3)', () => {
  let api: DevImageApi;
  let s3: S3Server;
  let proxy: TcpProxy;
  let t: TestApp;

  const savedEnv = { ...process.env };

  beforeAll(async () => {
    // The SDK reads its credentials from the environment at its first request.
    Object.assign(process.env, S3_SERVER_CREDENTIALS);
    api = await DevImageApi.start();
    s3 = await startS3Server();
    const port = Number(new URL(s3.endpoint).port);
    proxy = await TcpProxy.start({ host: '127.0.0.1', port });
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
      ...s3Env(s3),
      ASSET_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
      ASSET_S3_CONNECT_TIMEOUT_MS: '500',
      ASSET_S3_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.down();
    await s3?.close();
    await api?.close();
    for (const name of Object.keys(S3_SERVER_CREDENTIALS)) {
      if (savedEnv[name] === undefined) delete process.env[name];
      else process.env[name] = savedEnv[name];
    }
  });
  beforeEach(async () => {
    api.reset();
    await proxy.up();
    // Past the cache of the last bucket check.
    await new Promise((resolve) => setTimeout(resolve, 2100));
  });

  it('answers a keep 503 with Retry-After and a storage code, within the deadline, without paying, when the bucket never answers', async () => {
    const project = await createProject(t);
    await proxy.blackhole();

    const res = await keepLogo(t, project.id).expect(503);

    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      error: 'Asset storage is unavailable; try again shortly',
      code: 'asset_storage_unavailable',
    });
    expect(api.requests).toHaveLength(0);
    expect(
      await slowestBucket(t, '/api/projects/:id/logos', 503),
    ).toBeLessThanOrEqual(10);
  });

  it('does not pay the image model while the bucket refuses connections', async () => {
    const project = await createProject(t);
    await proxy.down();

    await keepLogo(t, project.id).expect(503);

    expect(api.requests).toHaveLength(0);
  });

  it('answers a content GET 503 within the deadline when the bucket stops answering', async () => {
    const project = await createProject(t);
    const kept = await keepLogo(t, project.id).expect(201);
    const url = new URL((kept.body as { asset: { url: string } }).asset.url);
    await proxy.blackhole();

    const res = await request(t.server).get(url.pathname).expect(503);

    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ code: 'asset_storage_unavailable' });
    expect(
      await slowestBucket(t, '/api/projects/:id/assets/:assetId/content', 503),
    ).toBeLessThanOrEqual(10);
  });

  it('reports not ready while the bucket does not answer, and stays live', async () => {
    await request(t.server).get('/health/ready').expect(200);
    await new Promise((resolve) => setTimeout(resolve, 5100));
    await proxy.blackhole();

    const res = await request(t.server).get('/health/ready').expect(503);

    expect(res.body).toMatchObject({
      status: 'error',
      error: { assetStorage: { status: 'down' } },
    });
    await request(t.server).get('/health/live').expect(200);
  });

  it('stores the paid image on a retry with the same Idempotency-Key after the storage failed, without paying again', async () => {
    const project = await createProject(t);
    // The bucket answers its check, then stops while the image is drawn.
    api.respondWith({ image: true, latencyMs: 500 });
    const first = keepLogo(t, project.id)
      .set('Idempotency-Key', 'storage-retry-1')
      .then((res) => res);
    await api.waitUntil(() => api.requests.length === 1);
    await proxy.blackhole();
    expect((await first).status).toBe(503);

    await proxy.up();
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const retry = await request(t.server)
      .post(`/api/projects/${project.id}/logos`)
      .set('Idempotency-Key', 'storage-retry-1')
      .send(LOGO_REQUEST)
      .expect(201);

    expect(api.requests).toHaveLength(1);
    const url = new URL((retry.body as { asset: { url: string } }).asset.url);
    await request(t.server).get(url.pathname).expect(200);
  });
});
