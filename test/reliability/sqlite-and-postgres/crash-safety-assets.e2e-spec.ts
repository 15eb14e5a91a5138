import { createHash } from 'node:crypto';
import {
  startDevImageApiProcess,
  type DevImageApiProcess,
} from '../../support/dev-image-api-process';
import { HttpClient } from '../../support/http-client';
import {
  byScale,
  recordReliability,
  reliabilitySeed,
  seededRandom,
} from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import {
  readStoredAssets,
  type StoredAssets,
} from '../../support/stored-assets';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../support/test-database';
import { ASSET_STORES } from '../crash-asset-stores';

const SECRET = 'sk-reliability-crash-assets-7c21e9d04b';
const KILL_POINTS = byScale(3, 20);
const CLIENTS = 4;
const JSON_TYPE = { 'content-type': 'application/json' };
const LOGO_REQUEST = JSON.stringify({
  companyName: 'Crash Test Rockets',
  style: 'geometric',
  colors: ['navy', '#ffd700'],
});

/** An asset a client was told about: the oracle of the checks. */
interface TrackedAsset {
  id: string;
  projectId: string;
  sha256: string;
  byteSize: number;
  /** `deleting`: a DELETE was sent and got no answer; either is fine. */
  state: 'kept' | 'deleting' | 'deleted';
}

interface TrackedProject {
  id: string;
  deleted: 'no' | 'unanswered' | 'acknowledged';
}

interface Counts {
  keptAcknowledged: number;
  answered: number;
  cutOff: number;
}

/** Every way the database breaks what the clients were told. */
function lostAssets(
  projects: Map<string, TrackedProject>,
  assets: Map<string, TrackedAsset>,
  stored: StoredAssets,
): string[] {
  const problems: string[] = [];
  const byId = new Map(stored.assets.map((asset) => [asset.id, asset]));
  for (const asset of stored.assets) {
    if (!stored.projects.has(asset.projectId)) {
      problems.push(`asset ${asset.id} outlived its project`);
    }
  }
  for (const asset of assets.values()) {
    const project = projects.get(asset.projectId)!;
    const found = byId.get(asset.id);
    if (project.deleted === 'acknowledged' || asset.state === 'deleted') {
      if (found)
        problems.push(`acknowledged delete of asset ${asset.id} was lost`);
      continue;
    }
    if (asset.state === 'deleting' || project.deleted === 'unanswered')
      continue;
    if (!found) {
      problems.push(`acknowledged asset ${asset.id} was lost`);
    } else if (
      found.sha256 !== asset.sha256 ||
      found.byteSize !== asset.byteSize
    ) {
      problems.push(`asset ${asset.id} is stored other than acknowledged`);
    }
  }
  for (const project of projects.values()) {
    if (project.deleted === 'acknowledged' && stored.projects.has(project.id)) {
      problems.push(`acknowledged delete of project ${project.id} was lost`);
    }
  }
  return problems;
}

const sha256 = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex');

/** A url's status and bytes; a connection cut mid-answer is status 0. */
async function loadBytes(
  url: string,
): Promise<{ status: number; bytes: Buffer }> {
  try {
    const answer = await fetch(url);
    return {
      status: answer.status,
      bytes: Buffer.from(await answer.arrayBuffer()),
    };
  } catch {
    return { status: 0, bytes: Buffer.alloc(0) };
  }
}

/**
 * The real server process keeping logos drawn by the dev image API (its own
 * process), SIGKILLed at random moments while clients keep logos, delete
 * them and delete whole projects, then restarted. After each kill, read
 * straight from the database: every acknowledged asset is there as it was
 * acknowledged, every acknowledged delete stays done, no row lacks its bytes
 * (which hash to the row's sha256) and no bytes lack their row. After each
 * restart, through the API: every acknowledged asset shows in its project
 * and its url serves bytes whose SHA-256 is the asset's. Runs once per byte
 * store (see crash-asset-stores.ts).
 */
describe.each(ASSET_STORES)(
  `Crash safety of kept logos on ${TEST_DATABASE}, %s store (reliability)`,
  (_name, store) => {
    let database: TestDatabase;
    let imageApi: DevImageApiProcess;
    let opened: Awaited<ReturnType<typeof store.open>>;
    let server: ServerProcess | undefined;
    const seed = reliabilitySeed(`crash-assets-${store.name}`);
    const random = seededRandom(seed);
    const projects = new Map<string, TrackedProject>();
    const assets = new Map<string, TrackedAsset>();
    const servedOnce = new Set<string>();
    /** Hashes of stored bytes already read (they never change). */
    const hashes = new Map<string, string>();

    beforeAll(async () => {
      database = await createTestDatabase();
      imageApi = await startDevImageApiProcess();
      opened = await store.open();
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      await opened?.close();
      await imageApi?.stop();
      await database?.drop();
    });

    const start = () =>
      startServer({
        DATABASE_URL: database.url,
        IMAGE_API_KEY: SECRET,
        IMAGE_API_URL: imageApi.url,
        LOGO_RATE_LIMIT: '0',
        ASSET_MAX_PER_PROJECT: '1000',
        LOG_LEVEL: 'warn',
        ...opened.env,
      });

    /** One client: its own project, kept logos, deletes of both. */
    async function runClient(
      client: HttpClient,
      stopped: () => boolean,
      counts: Counts,
    ): Promise<void> {
      let project: TrackedProject | undefined;
      const mine: TrackedAsset[] = [];
      while (!stopped()) {
        const roll = random();
        try {
          if (!project) {
            const answer = await client.send({
              method: 'POST',
              path: '/api/projects',
              headers: JSON_TYPE,
              body: JSON.stringify({ name: 'Crash', userId: 'crash-assets' }),
            });
            if (answer.status !== 201) throw new Error(answer.text);
            const { id } = (
              JSON.parse(answer.text) as { project: { id: string } }
            ).project;
            project = { id, deleted: 'no' };
            projects.set(id, project);
          } else if (mine.length < 2 || roll < 0.75) {
            const answer = await client.send({
              method: 'POST',
              path: `/api/projects/${project.id}/logos`,
              headers: JSON_TYPE,
              body: LOGO_REQUEST,
            });
            if (answer.status !== 201) {
              throw new Error(`keep answered ${answer.status}: ${answer.text}`);
            }
            const { asset } = JSON.parse(answer.text) as {
              asset: Omit<TrackedAsset, 'state'>;
            };
            const tracked: TrackedAsset = {
              id: asset.id,
              projectId: asset.projectId,
              sha256: asset.sha256,
              byteSize: asset.byteSize,
              state: 'kept',
            };
            assets.set(tracked.id, tracked);
            mine.push(tracked);
            counts.keptAcknowledged++;
          } else if (roll < 0.95) {
            const asset = mine.splice(Math.floor(random() * mine.length), 1)[0];
            asset.state = 'deleting';
            const answer = await client.send({
              method: 'DELETE',
              path: `/api/projects/${project.id}/assets/${asset.id}`,
            });
            if (answer.status === 200) asset.state = 'deleted';
          } else {
            const gone = project;
            gone.deleted = 'unanswered';
            project = undefined;
            mine.length = 0;
            const answer = await client.send({
              method: 'DELETE',
              path: `/api/projects/${gone.id}`,
            });
            if (answer.status === 200) gone.deleted = 'acknowledged';
          }
          counts.answered++;
        } catch (error) {
          if (stopped()) {
            // Killed mid-request: whatever was sent may or may not be stored.
            counts.cutOff++;
            return;
          }
          throw error;
        }
      }
    }

    /**
     * Through the restarted API: each live project lists exactly its
     * acknowledged assets and none whose delete was acknowledged, and each
     * url serves the acknowledged bytes.
     */
    async function servedProblems(baseUrl: string): Promise<string[]> {
      const problems: string[] = [];
      const client = new HttpClient(baseUrl);
      try {
        for (const project of projects.values()) {
          if (project.deleted !== 'no') continue;
          const answer = await client.send({
            method: 'GET',
            path: `/api/projects/${project.id}`,
          });
          if (answer.status !== 200) {
            problems.push(
              `GET project ${project.id} answered ${answer.status}`,
            );
            continue;
          }
          const listed = (
            JSON.parse(answer.text) as {
              project: { assets: Array<{ id: string; url: string }> };
            }
          ).project.assets;
          const urls = new Map(listed.map((a) => [a.id, a.url]));
          for (const asset of assets.values()) {
            if (asset.projectId !== project.id) continue;
            const url = urls.get(asset.id);
            if (asset.state === 'deleted' && url) {
              problems.push(`deleted asset ${asset.id} is still listed`);
            }
            if (asset.state !== 'kept') continue;
            if (!url) {
              problems.push(`asset ${asset.id} is not listed`);
              continue;
            }
            // Each url's bytes are loaded once: the check after every kill
            // hashes every stored asset's bytes anyway.
            if (servedOnce.has(asset.id)) continue;
            servedOnce.add(asset.id);
            const served = await loadBytes(url);
            if (
              served.status !== 200 ||
              sha256(served.bytes) !== asset.sha256
            ) {
              problems.push(
                `asset ${asset.id}'s url answered ${served.status} with ${served.bytes.length} bytes not matching its sha256`,
              );
            }
          }
        }
      } finally {
        client.close();
      }
      return problems;
    }

    it(
      `keeps every acknowledged logo, and its bytes, through ${KILL_POINTS} SIGKILLs`,
      async () => {
        const failures: string[] = [];
        const counts: Counts = { keptAcknowledged: 0, answered: 0, cutOff: 0 };
        let killsSurvived = 0;
        for (let kill = 0; kill < KILL_POINTS; kill++) {
          server = await start();
          const restarted = await servedProblems(server.baseUrl);
          failures.push(
            ...restarted.map((p) => `after restart ${kill + 1}: ${p}`),
          );
          const clients = Array.from(
            { length: CLIENTS },
            () => new HttpClient(server!.baseUrl, 1),
          );
          let stopped = false;
          const running = clients.map((client) =>
            runClient(client, () => stopped, counts),
          );
          // A random moment: 0.5 to 3 s into the writes, so that kills land
          // while images are drawn, rows written and bytes read back.
          await new Promise((resolve) =>
            setTimeout(resolve, 500 + random() * 2_500),
          );
          // Stopped first: an error from here on is the kill's doing.
          stopped = true;
          await server.kill();
          const ended = await Promise.allSettled(running);
          clients.forEach((client) => client.close());
          for (const result of ended) {
            if (result.status === 'rejected') {
              failures.push(
                `before kill ${kill + 1}: ${String(result.reason)}`,
              );
            }
          }
          if (`${server.stdout}${server.stderr}`.includes(SECRET)) {
            failures.push('the key appeared in the output');
          }
          server = undefined;

          const stored = await readStoredAssets(database, hashes);
          const problems = [
            ...lostAssets(projects, assets, stored),
            ...(await opened.problems(stored)),
            ...(stored.integrity === 'ok'
              ? []
              : [`integrity_check: ${stored.integrity}`]),
          ];
          failures.push(...problems.map((p) => `after kill ${kill + 1}: ${p}`));
          if (problems.length === 0) killsSurvived++;
        }
        server = await start();
        failures.push(
          ...(await servedProblems(server.baseUrl)).map(
            (p) => `after the last restart: ${p}`,
          ),
        );
        failures.push(
          ...(
            await opened.afterRestart(() => readStoredAssets(database, hashes))
          ).map((p) => `after the last restart: ${p}`),
        );
        recordReliability({
          driver: 'crash',
          item: `kill points keeping logos, ${store.name} store (${counts.keptAcknowledged} logos kept, ${counts.answered} writes answered, ${counts.cutOff} cut off${opened.summary()})`,
          count: killsSurvived,
          failures: failures.length,
          seed,
        });
        process.stdout.write(
          `[reliability] crash-assets ${store.name}: ${killsSurvived}/${KILL_POINTS} kills survived, ${counts.keptAcknowledged} logos kept, ${counts.answered} writes answered, ${counts.cutOff} cut off${opened.summary()}\n`,
        );
        expect(failures).toEqual([]);
        expect(killsSurvived).toBe(KILL_POINTS);
        expect(counts.keptAcknowledged).toBeGreaterThan(0);
      },
      byScale(180_000, 1_200_000),
    );
  },
);
