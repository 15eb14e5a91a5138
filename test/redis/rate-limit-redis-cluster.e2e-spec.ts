import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { escapeBraces } from '../../src/common/rate-limit/redis-throttler-storage';
import { RedisThrottlerStorage } from '../../src/common/rate-limit/redis-throttler-storage';
import { clusterKeySlot } from '../support/redis-cluster-slot';

/**
 * The rate-limit script on Redis Cluster: a cluster of three masters, each
 * a redis-server this suite starts (on free loopback ports, files in a temp
 * folder) and stops. A script may touch keys of one slot only; the storage's
 * two keys per hit share a hash tag, so every hit runs, for clients whose
 * keys live on different masters.
 */

const run = promisify(execFile);
const MASTERS = 3;

/** A port free on 127.0.0.1, with its cluster bus port (+10000) free too. */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  const isFree = (port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    if (taken.has(port)) continue;
    if ((await isFree(port)) && (await isFree(port + 10000))) return port;
  }
  throw new Error('No free port pair for a Redis Cluster node');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Rate limits on Redis Cluster', () => {
  let dir: string;
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  let cluster: Cluster;
  let storage: RedisThrottlerStorage;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
    const taken = new Set<number>();
    for (let i = 0; i < MASTERS; i++) {
      const port = await freeClusterPort(taken);
      taken.add(port);
      ports.push(port);
      const server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: 'ignore' },
      );
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('spawn', resolve);
        server.once('error', (error) =>
          reject(
            new Error(
              `redis-server could not be started (${error.message}): this suite needs Redis's server binary on PATH`,
            ),
          ),
        );
      });
    }
    for (const port of ports) {
      const node = new Redis(port, '127.0.0.1', { lazyConnect: true });
      for (let i = 0; i < 100; i++) {
        if (
          await node.connect().then(
            () => true,
            () => false,
          )
        )
          break;
        await sleep(50);
      }
      node.disconnect();
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (const port of ports) {
      const node = new Redis(port, '127.0.0.1');
      let state = '';
      for (let i = 0; i < 200 && state !== 'ok'; i++) {
        const info = await node.cluster('INFO');
        state = /cluster_state:(\w+)/.exec(info)?.[1] ?? '';
        if (state !== 'ok') await sleep(50);
      }
      await node.quit();
      expect(state).toBe('ok');
    }
    cluster = new Cluster([{ host: '127.0.0.1', port: ports[0] }]);
    storage = new RedisThrottlerStorage(cluster);
  }, 60_000);

  afterAll(async () => {
    await storage?.onApplicationShutdown();
    // Without persistence a redis-server exits at once on SIGTERM.
    await Promise.all(
      servers.map((server) => {
        if (server.exitCode !== null || server.signalCode !== null) {
          return Promise.resolve();
        }
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        return exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  /** A client rate limit's key, as ClientRateLimit writes it. */
  const keyOf = (client: string) =>
    `workspace-api:logo-rate:{${escapeBraces(client)}}`;

  it('refuses a script whose two keys lie in different slots (what the storage wrote before)', async () => {
    const state = 'workspace-api:logo-rate:198.51.100.1:logo:state';
    const hits = 'workspace-api:logo-rate:198.51.100.1:logo:hits';
    expect(clusterKeySlot(state)).not.toBe(clusterKeySlot(hits));
    await expect(
      cluster.eval(
        "return redis.call('EXISTS', KEYS[1], KEYS[2])",
        2,
        state,
        hits,
      ),
    ).rejects.toThrow(/CROSSSLOT/);
  });

  it('computes slots as the cluster does', async () => {
    for (const key of ['foo', keyOf('198.51.100.2'), '{}x', 'a{b}{c}', '}x']) {
      expect(await cluster.cluster('KEYSLOT', key)).toBe(clusterKeySlot(key));
    }
  });

  it('counts, limits and blocks each client, with clients on every master', async () => {
    const clients = Array.from(
      { length: 30 },
      (_, i) => `198.51.100.${i + 10}`,
    );
    clients.push('user:{odd}name', '');
    for (const client of clients) {
      for (let hit = 1; hit <= 3; hit++) {
        const record = await storage.increment(
          keyOf(client),
          60_000,
          3,
          60_000,
          'logo',
        );
        expect(record).toMatchObject({ totalHits: hit, isBlocked: false });
      }
      const over = await storage.increment(
        keyOf(client),
        60_000,
        3,
        60_000,
        'logo',
      );
      expect(over.isBlocked).toBe(true);
    }
    // The clients' keys are spread over the masters, not kept on one.
    const holding = await Promise.all(
      cluster.nodes('master').map((node) => node.dbsize()),
    );
    expect(holding.filter((count) => count > 0)).toHaveLength(MASTERS);
  });

  it('runs a key without a tag of its own too', async () => {
    const record = await storage.increment('plain:key', 60_000, 5, 60_000, 'n');
    expect(record.totalHits).toBe(1);
  });
});
