import Database from 'better-sqlite3';
import { Client } from 'pg';
import { HttpClient } from '../../support/http-client';
import {
  byScale,
  recordReliability,
  reliabilitySeed,
  seededRandom,
} from '../../support/reliability';
import { startServer, type ServerProcess } from '../../support/server-process';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../support/test-database';

const SECRET = 'sk-reliability-crash-41d7e2c09ab8f3';
const KILL_POINTS = byScale(2, 20);
const CLIENTS = 6;

/** What the clients were told, per project: the oracle of the check. */
interface Tracked {
  /** The name the last acknowledged create or patch set. */
  name: string;
  /** Names sent after it that got no answer: each may or may not be applied. */
  unanswered: string[];
  deleted: 'no' | 'acknowledged' | 'unanswered';
}

interface StoredProject {
  id: string;
  name: string;
  sections: number;
  agents: number;
}

/** Reads every project and its child counts straight from the database. */
async function readStored(database: TestDatabase): Promise<{
  projects: StoredProject[];
  orphans: number;
  integrity: string;
}> {
  const projectsSql = `SELECT p.id AS id, p.name AS name,
      (SELECT COUNT(*) FROM sections s WHERE s."projectId" = p.id) AS sections,
      (SELECT COUNT(*) FROM agents a WHERE a."projectId" = p.id) AS agents
    FROM projects p`;
  const orphansSql = `SELECT
      (SELECT COUNT(*) FROM sections s WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = s."projectId")) +
      (SELECT COUNT(*) FROM agents a WHERE NOT EXISTS (SELECT 1 FROM projects p WHERE p.id = a."projectId")) AS orphans`;
  if (TEST_DATABASE === 'sqlite') {
    // Opened read-write: the file is as the killed process left it, and
    // opening it is the recovery a restart would do.
    const db = new Database(database.url.slice('file:'.length));
    try {
      const rows = db.prepare(projectsSql).all() as StoredProject[];
      const { orphans } = db.prepare(orphansSql).get() as { orphans: number };
      const integrity = (
        db.pragma('integrity_check') as Array<{ integrity_check: string }>
      )
        .map((row) => row.integrity_check)
        .join('; ');
      return { projects: rows, orphans, integrity };
    } finally {
      db.close();
    }
  }
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const rows = (await client.query(projectsSql)).rows as Array<
      Record<string, unknown>
    >;
    const { orphans } = (await client.query(orphansSql)).rows[0] as {
      orphans: string;
    };
    return {
      projects: rows.map((row) => ({
        id: row.id as string,
        name: row.name as string,
        sections: Number(row.sections),
        agents: Number(row.agents),
      })),
      orphans: Number(orphans),
      integrity: 'ok',
    };
  } finally {
    await client.end();
  }
}

/** Every way the stored state breaks what the clients were told. */
function lostWrites(
  tracked: Map<string, Tracked>,
  stored: StoredProject[],
): string[] {
  const problems: string[] = [];
  const byId = new Map(stored.map((p) => [p.id, p]));
  for (const project of stored) {
    if (project.sections !== 8 || project.agents !== 3) {
      problems.push(
        `project ${project.id} has ${project.sections} sections and ${project.agents} agents`,
      );
    }
  }
  for (const [id, expected] of tracked) {
    const found = byId.get(id);
    if (expected.deleted === 'acknowledged') {
      if (found) problems.push(`acknowledged delete of ${id} was lost`);
      continue;
    }
    if (!found) {
      if (expected.deleted === 'no')
        problems.push(`acknowledged project ${id} was lost`);
      continue;
    }
    if (
      found.name !== expected.name &&
      !expected.unanswered.includes(found.name)
    ) {
      problems.push(
        `project ${id} is named ${JSON.stringify(found.name)}, acknowledged ${JSON.stringify(expected.name)}`,
      );
    }
  }
  return problems;
}

/**
 * The real server process, on a SQLite file or a PostgreSQL database,
 * killed with SIGKILL in the middle of concurrent creates, patches and
 * deletes, then restarted: nothing acknowledged may be lost, no project may
 * be left with part of its children, and SQLite's file must be intact.
 */
describe(`Crash safety on ${TEST_DATABASE} (reliability)`, () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  const seed = reliabilitySeed('crash');
  const random = seededRandom(seed);
  const tracked = new Map<string, Tracked>();

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const start = () =>
    startServer({
      DATABASE_URL: database.url,
      IMAGE_API_KEY: SECRET,
      LOG_LEVEL: 'warn',
    });

  /** One client: creates, then patches and deletes only its own projects. */
  async function runClient(
    client: HttpClient,
    index: number,
    stopped: () => boolean,
    counts: { answered: number; unanswered: number },
  ): Promise<void> {
    const mine: string[] = [];
    let serial = 0;
    while (!stopped()) {
      const roll = random();
      const name = `c${index}-${serial++}`;
      const json = { 'content-type': 'application/json' };
      try {
        if (mine.length < 3 || roll < 0.5) {
          const answer = await client.send({
            method: 'POST',
            path: '/api/projects',
            headers: json,
            body: JSON.stringify({ name, userId: `crash-${index}` }),
          });
          if (answer.status === 201) {
            const { id } = (
              JSON.parse(answer.text) as { project: { id: string } }
            ).project;
            tracked.set(id, { name, unanswered: [], deleted: 'no' });
            mine.push(id);
          }
        } else if (roll < 0.8) {
          const id = mine[Math.floor(random() * mine.length)];
          const project = tracked.get(id)!;
          project.unanswered.push(name);
          const answer = await client.send({
            method: 'PATCH',
            path: `/api/projects/${id}`,
            headers: json,
            body: JSON.stringify({ name }),
          });
          if (answer.status === 200) {
            project.name = name;
            project.unanswered = [];
          }
        } else {
          const id = mine.splice(Math.floor(random() * mine.length), 1)[0];
          const project = tracked.get(id)!;
          project.deleted = 'unanswered';
          const answer = await client.send({
            method: 'DELETE',
            path: `/api/projects/${id}`,
          });
          if (answer.status === 200) project.deleted = 'acknowledged';
        }
        counts.answered++;
      } catch {
        // Killed mid-request: whatever was sent may or may not be stored.
        counts.unanswered++;
        return;
      }
    }
  }

  it(
    `keeps every acknowledged write through ${KILL_POINTS} SIGKILLs, with no partial project`,
    async () => {
      const failures: string[] = [];
      let killsSurvived = 0;
      const counts = { answered: 0, unanswered: 0 };
      for (let kill = 0; kill < KILL_POINTS; kill++) {
        server = await start();
        const clients = Array.from(
          { length: CLIENTS },
          () => new HttpClient(server!.baseUrl, 1),
        );
        let stopped = false;
        const running = clients.map((client, index) =>
          runClient(client, kill * CLIENTS + index, () => stopped, counts),
        );
        // A random moment: 200 ms to 1.5 s into the writes.
        await new Promise((resolve) =>
          setTimeout(resolve, 200 + random() * 1_300),
        );
        await server.kill();
        stopped = true;
        await Promise.all(running);
        clients.forEach((client) => client.close());
        const output = `${server.stdout}${server.stderr}`;
        if (output.includes(SECRET))
          failures.push('the key appeared in the output');

        const stored = await readStored(database);
        const problems = [
          ...lostWrites(tracked, stored.projects),
          ...(stored.orphans ? [`${stored.orphans} orphaned children`] : []),
          ...(stored.integrity === 'ok'
            ? []
            : [`integrity_check: ${stored.integrity}`]),
        ];
        failures.push(...problems.map((p) => `after kill ${kill + 1}: ${p}`));
        if (problems.length === 0) killsSurvived++;
      }

      // And the restarted service serves what was stored.
      server = await start();
      const client = new HttpClient(server.baseUrl);
      const sample = [...tracked.entries()]
        .filter(([, t]) => t.deleted === 'no')
        .slice(-20);
      for (const [id, expected] of sample) {
        const answer = await client.send({
          method: 'GET',
          path: `/api/projects/${id}`,
        });
        const project = (
          JSON.parse(answer.text) as {
            project?: { name: string; sections: unknown[]; agents: unknown[] };
          }
        ).project;
        if (
          answer.status !== 200 ||
          !project ||
          project.sections.length !== 8 ||
          project.agents.length !== 3 ||
          ![expected.name, ...expected.unanswered].includes(project.name)
        ) {
          failures.push(`after restart GET ${id} answered ${answer.status}`);
        }
      }
      client.close();
      recordReliability({
        driver: 'crash',
        item: `kill points (${counts.answered} writes answered, ${counts.unanswered} cut off)`,
        count: killsSurvived,
        failures: failures.length,
        seed,
      });
      expect(failures).toEqual([]);
      expect(killsSurvived).toBe(KILL_POINTS);
      expect(counts.answered).toBeGreaterThan(0);
    },
    byScale(120_000, 900_000),
  );

  it(
    `maps every Idempotency-Key to exactly one whole project through ${KILL_POINTS} SIGKILLs and retries`,
    async () => {
      const failures: string[] = [];
      /** Each key's project id, once an answer named one. */
      const projectOfKey = new Map<string, string>();
      let sent = 0;
      await server?.stop();
      for (let kill = 0; kill < KILL_POINTS; kill++) {
        server = await start();
        const clients = Array.from(
          { length: CLIENTS },
          () => new HttpClient(server!.baseUrl, 1),
        );
        const keys: string[] = [];
        let stopped = false;
        const create = (client: HttpClient, key: string) =>
          client.send({
            method: 'POST',
            path: '/api/projects',
            headers: {
              'content-type': 'application/json',
              'idempotency-key': key,
            },
            body: JSON.stringify({ name: key, userId: 'crash-keys' }),
          });
        const running = clients.map(async (client, index) => {
          for (let serial = 0; !stopped; serial++) {
            const key = `idem-${kill}-${index}-${serial}`;
            keys.push(key);
            sent++;
            try {
              const answer = await create(client, key);
              if (answer.status !== 201) {
                failures.push(`${key}: answered ${answer.status}`);
                continue;
              }
              const { id } = (
                JSON.parse(answer.text) as { project: { id: string } }
              ).project;
              projectOfKey.set(key, id);
            } catch {
              return; // Killed mid-request: stored or not, the retry tells.
            }
          }
        });
        await new Promise((resolve) =>
          setTimeout(resolve, 200 + random() * 1_300),
        );
        await server.kill();
        stopped = true;
        await Promise.all(running);
        clients.forEach((client) => client.close());

        // The retries, after the restart: each key's own project, or a
        // new one if the first request never committed.
        server = await start();
        const client = new HttpClient(server.baseUrl);
        for (const key of keys) {
          const answer = await create(client, key);
          const id =
            answer.status === 201
              ? (JSON.parse(answer.text) as { project: { id: string } }).project
                  .id
              : undefined;
          const known = projectOfKey.get(key);
          if (!id) failures.push(`retry of ${key} answered ${answer.status}`);
          else if (known && known !== id) {
            failures.push(`retry of ${key} named ${id}, first ${known}`);
          } else if (
            known &&
            answer.headers['idempotent-replayed'] !== 'true'
          ) {
            failures.push(`retry of ${key} was not marked as a replay`);
          }
          if (id) projectOfKey.set(key, id);
        }
        client.close();
        await server.stop();
        server = undefined;

        const stored = (await readStored(database)).projects.filter((p) =>
          p.name.startsWith('idem-'),
        );
        const byName = new Map<string, StoredProject[]>();
        for (const project of stored) {
          byName.set(project.name, [
            ...(byName.get(project.name) ?? []),
            project,
          ]);
        }
        for (const key of keys) {
          const projects = byName.get(key) ?? [];
          if (projects.length !== 1) {
            failures.push(`${key} has ${projects.length} projects`);
          } else if (projects[0].id !== projectOfKey.get(key)) {
            failures.push(`${key}'s project is not the one its answers named`);
          } else if (projects[0].sections !== 8 || projects[0].agents !== 3) {
            failures.push(`${key}'s project is partial`);
          }
        }
      }
      recordReliability({
        driver: 'crash',
        item: `kill points with Idempotency-Key creates (${sent} keys, every one retried)`,
        count: KILL_POINTS - (failures.length ? 1 : 0),
        failures: failures.length,
        seed,
      });
      expect(failures).toEqual([]);
      expect(projectOfKey.size).toBeGreaterThan(0);
    },
    byScale(120_000, 900_000),
  );
});
