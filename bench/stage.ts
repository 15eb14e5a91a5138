import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Backend, BackendKind } from './databases';
import { prepareAssetTargets, type AssetTargets } from './kept-logos';
import { POD_HEAP_FLAGS } from './pod-heap';
import { rssBytes } from './proc-stats';
import { sleep } from './processes';
import { type Service, startService } from './service';
import { checkSeededShape } from './shape-check';
import { seededUserId } from './seed-rows';
import {
  BURST,
  ID_SAMPLE_SIZE,
  MAIN_DATA,
  type Settings,
  SMALL_DATA,
} from './settings';

/**
 * One database kind under test: its seeded databases and the long-running
 * service processes the timed scenarios hit, plus short-lived ones for the
 * cold start and the burst.
 */

export interface Upstreams {
  /** Image API answering at once (logo scenario). */
  instantUrl: string;
  /** Image API answering after 1,000 ms (burst). */
  slowUrl: string;
}

export interface ColdStart {
  /** Spawn to the first 200 of /health/ready. */
  coldStartMs: number;
  /** RSS one second after the first answer, before any load. */
  idleRssBytes: number;
}

export interface Stage {
  kind: BackendKind;
  main: Service;
  small: Service;
  /** The main data set with AUTH_MODE=oidc, when that scenario runs. */
  oidc?: Service;
  idsFile: string;
  /** A seeded project id, for the reference body. */
  sampleId: string;
  /** The main data set's SQLite file (SQLite only), for the minimal app. */
  sqliteFile?: string;
  /** The main server's projects for keep-logo and asset-content. */
  assets: AssetTargets;
  coldStart(): Promise<ColdStart>;
  startBurstServer(): Promise<Service>;
  /** `count` unpinned service processes on the main data set. */
  startReplicas(count: number): Promise<Service[]>;
}

function sample<T>(items: T[], size: number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, size);
}

/** The OpenID Provider of the `oidc` server and an admin's token. */
export interface BenchAuth {
  issuer: string;
  audience: string;
  adminRole: string;
  token: string;
}

/**
 * The environment every service process of the bench gets (the image API's
 * URL aside), whichever build it runs.
 */
export function serviceEnv(logLevel?: string): Record<string, string> {
  return {
    IMAGE_API_KEY: 'bench-key',
    // Every request of the bench comes from 127.0.0.1: the per-client logo
    // limit would turn the logo scenarios into a 429 benchmark.
    LOGO_RATE_LIMIT: '0',
    // Likewise the cap on one client's logo requests in flight or waiting:
    // past it they are 429s (the burst sends 1,000 at once).
    IMAGE_API_CLIENT_LIMIT: '100000',
    // Keep-logo adds hundreds of logos per window to a few projects; the
    // limit is not what it measures.
    ASSET_MAX_PER_PROJECT: '1000',
    ...(logLevel ? { LOG_LEVEL: logLevel } : {}),
  };
}

export async function prepareStage(
  backend: Backend,
  settings: Settings,
  workDir: string,
  upstreams: Upstreams,
  auth?: BenchAuth,
): Promise<Stage> {
  const log = (text: string) => console.log(`[${backend.kind}] ${text}`);
  let started = Date.now();
  const mainDb = await backend.seeded('main', MAIN_DATA);
  log(
    `seeded ${MAIN_DATA.projects} projects over ${MAIN_DATA.users} users in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  started = Date.now();
  const smallDb = await backend.seeded('small', SMALL_DATA);
  log(
    `seeded ${SMALL_DATA.projects} projects in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const idsFile = join(workDir, `ids-${backend.kind}.json`);
  writeFileSync(idsFile, JSON.stringify(sample(mainDb.ids, ID_SAMPLE_SIZE)));

  const common = serviceEnv(settings.logLevel);
  const mainEnv = { ...common, IMAGE_API_URL: upstreams.instantUrl };
  const main = await startService({
    name: `${backend.kind}-main`,
    databaseUrl: mainDb.url,
    workDir,
    env: mainEnv,
    nodeArgs: settings.serverNodeArgs,
  });
  // The same data with AUTH_MODE=oidc; an admin's token reads every id.
  const oidc = auth
    ? await startService({
        name: `${backend.kind}-oidc`,
        databaseUrl: mainDb.url,
        workDir,
        env: {
          ...mainEnv,
          AUTH_MODE: 'oidc',
          ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
          AUTH_ISSUER: auth.issuer,
          AUTH_AUDIENCE: auth.audience,
          AUTH_ADMIN_ROLE: auth.adminRole,
        },
        nodeArgs: settings.serverNodeArgs,
        // Its /api routes need a token.
        readyPath: '/health/ready',
      })
    : undefined;
  const small = await startService({
    name: `${backend.kind}-small`,
    databaseUrl: smallDb.url,
    workDir,
    env: mainEnv,
  });

  await checkSeededShape({
    baseUrl: main.baseUrl,
    seededId: mainDb.ids[0],
    seededUser: seededUserId(0),
    projectsPerUser: MAIN_DATA.projects / MAIN_DATA.users,
    sqliteFile:
      backend.kind === 'sqlite' ? mainDb.url.slice('file:'.length) : undefined,
  });
  log('seeded rows have the same shape as API-created ones');
  const assets = await prepareAssetTargets(main.baseUrl);
  log(
    `${assets.keeperIds.length} projects to keep logos in, one kept logo of ${assets.contentBytes} bytes to serve`,
  );

  return {
    kind: backend.kind,
    main,
    small,
    oidc,
    idsFile,
    sampleId: mainDb.ids[0],
    sqliteFile:
      backend.kind === 'sqlite' ? mainDb.url.slice('file:'.length) : undefined,
    assets,
    async coldStart() {
      // In the pod's shape, and until the pod would get traffic: the
      // first 200 of /health/ready, which waits for the warm-up.
      const service = await startService({
        name: `${backend.kind}-cold`,
        databaseUrl: mainDb.url,
        workDir,
        env: mainEnv,
        nodeArgs: POD_HEAP_FLAGS,
        readyPath: '/health/ready',
      });
      try {
        await sleep(1_000);
        return {
          coldStartMs: service.coldStartMs,
          idleRssBytes: rssBytes(service.pid),
        };
      } finally {
        await service.stop();
      }
    },
    startReplicas: (count) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          startService({
            name: `${backend.kind}-replica-${i + 1}`,
            databaseUrl: mainDb.url,
            workDir,
            env: mainEnv,
            unpinned: true,
          }),
        ),
      ),
    // A fresh process per round: its RSS growth is that of a first burst.
    startBurstServer: () =>
      startService({
        name: `${backend.kind}-burst`,
        databaseUrl: smallDb.url,
        workDir,
        env: {
          ...common,
          IMAGE_API_URL: upstreams.slowUrl,
          IMAGE_API_CONCURRENCY: String(BURST.requests),
        },
      }),
  };
}
