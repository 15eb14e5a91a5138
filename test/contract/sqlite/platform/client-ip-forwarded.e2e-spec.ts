import request from 'supertest';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Which address a rate limit counts under TRUST_PROXY when the client writes
 * X-Forwarded-For itself. The test's socket is the proxy (loopback): the
 * last entry is what the proxy appended, the ones before it the client's.
 * PROJECT_CREATE_RATE_LIMIT=1 shows whether two requests counted as one
 * client (201 then 429) or as two (201, 201).
 */

const valid = { name: 'P', userId: 'u' };

describe('client address from X-Forwarded-For', () => {
  const apps: TestApp[] = [];
  const appWith = async (trustProxy: string) => {
    const app = await createTestApp({
      PROJECT_CREATE_RATE_LIMIT: '1',
      TRUST_PROXY: trustProxy,
    });
    apps.push(app);
    return app;
  };
  const post = (t: TestApp, forwardedFor: string | string[]) =>
    request(t.server)
      .post('/api/projects')
      // A list goes out as one header line per item (Node's setHeader);
      // supertest's types only admit that for Cookie.
      .set('X-Forwarded-For', forwardedFor as string)
      .send(valid);

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it.each(['true', '1', 'loopback'])(
    'TRUST_PROXY=%s: an address the client wrote left of the one its proxy appended is ignored',
    async (trustProxy) => {
      const t = await appWith(trustProxy);
      await post(t, '198.51.100.1, 203.0.113.9').expect(201);
      await post(t, '198.51.100.2, 203.0.113.9').expect(429);
      await post(t, '203.0.113.10').expect(201);
    },
  );

  it('TRUST_PROXY=loopback: entries that are not addresses never make a new client', async () => {
    const t = await appWith('loopback');
    await post(t, 'junk-1').expect(201);
    await post(t, 'junk-2').expect(429);
    await post(t, '203.0.113.9, not-an-ip').expect(429);
  });

  it('TRUST_PROXY=loopback: several X-Forwarded-For headers are read as one list, from the right', async () => {
    const t = await appWith('loopback');
    await post(t, ['198.51.100.1', '203.0.113.9']).expect(201);
    await post(t, ['198.51.100.2', '203.0.113.9']).expect(429);
  });
});
