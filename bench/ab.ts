import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type AbBackendRun, writeAbReport } from './ab-report';
import { type AbSettings, type Build, readAbSettings } from './ab-settings';
import {
  type Backend,
  freshSqliteCopy,
  postgresBackend,
  sqliteBackend,
} from './databases';
import {
  type AssetTargets,
  forgetKeptLogos,
  prepareAssetTargets,
} from './kept-logos';
import { LoadGenerator } from './load-client';
import { writeLogoPng } from './logo-png';
import type { TimedJob } from './load-protocol';
import { measureTimed } from './measure';
import { MB, rssBytes } from './proc-stats';
import {
  hasTaskset,
  pinSelf,
  runScript,
  sleep,
  startHelperServer,
} from './processes';
import type { SqliteRefSample } from './report';
import { startBenchRun } from './bench-run';
import { SCENARIOS } from './scenarios';
import { seededUserId } from './seed-rows';
import { type Service, startService } from './service';
import { checkSeededShape } from './shape-check';
import { serviceEnv } from './stage';
import { LOAD_CORE, SERVER_CORE } from './settings';

/**
 * `npm run bench:ab`: an interleaved A/B of two builds of the service
 * (BENCH_A_DIR, default ../ab-baseline; BENCH_B_DIR, default this checkout).
 * Both run at once as production runs them (`node <dir>/dist/service/main.js`,
 * the same environment), each on its own Node.js (BENCH_A_NODE /
 * BENCH_B_NODE, else the checkout's pinned one, else the bench's), pinned
 * to the server core, on one seeded database per kind. Each round drives every scenario against A and B back to back,
 * A first in odd rounds and B first in even ones, so a drift of the machine
 * during the run lands on both alike. See bench/README.md.
 */

const settings = readAbSettings();
const run = startBenchRun('workspace-bench-ab-');
const { workDir, backends } = run;

const log = (text: string) => console.log(text);
const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

/** One database kind: its seeded database(s) and how to start each build on it. */
interface AbStage {
  backend: Backend;
  idsFile: string;
  start(build: Build): Promise<Service>;
}

/**
 * Each build gets its own copy of the seeded database (a byte copy of the
 * SQLite file, a TEMPLATE copy on PostgreSQL), so that B's migrations never
 * change A's schema and one build's writes never land on the other. SQLite
 * with BENCH_AB_SHARED_SQLITE=1: one file for both.
 */
function databaseFor(
  backend: Backend,
  url: string,
  label: Build['label'],
): Promise<string> {
  if (backend.kind === 'sqlite' && settings.sharedSqlite) {
    return Promise.resolve(url);
  }
  return backend.copyOf(url, label);
}

async function prepare(backend: Backend, imageUrl: string): Promise<AbStage> {
  const started = performance.now();
  const db = await backend.seeded('ab', settings.data);
  log(
    `[${backend.kind}] seeded ${settings.data.projects} projects over ${settings.data.users} users in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  const idsFile = join(workDir, `ids-${backend.kind}.json`);
  writeFileSync(idsFile, JSON.stringify(db.ids));
  // The environment of the main bench's servers, identical for both builds.
  const env = { ...serviceEnv(), IMAGE_API_URL: imageUrl };
  const urls = {
    A: await databaseFor(backend, db.url, 'A'),
    B: await databaseFor(backend, db.url, 'B'),
  };
  const start = (build: Build) =>
    startService({
      name: `${backend.kind}-${build.label}`,
      databaseUrl: urls[build.label],
      workDir,
      env,
      entry: build.entry,
      node: build.node,
    });
  for (const build of [settings.a, settings.b]) {
    const service = await start(build);
    try {
      // Both builds must serve the seeded rows as they serve their own.
      await checkSeededShape({
        baseUrl: service.baseUrl,
        seededId: db.ids[0],
        seededUser: seededUserId(0),
        projectsPerUser: settings.data.projects / settings.data.users,
        sqliteFile:
          backend.kind === 'sqlite'
            ? urls[build.label].slice('file:'.length)
            : undefined,
      });
    } finally {
      await service.stop();
    }
    log(
      `[${backend.kind}] ${build.label} serves the seeded rows with the API's shape`,
    );
  }
  return { backend, idsFile, start };
}

function timedJob(
  s: AbSettings,
  baseUrl: string,
  plan: TimedJob['plan'],
): TimedJob {
  return {
    type: 'timed',
    baseUrl,
    plan,
    connections: s.connections,
    warmupS: s.warmupS,
    durationS: s.durationS,
  };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  pinSelf(LOAD_CORE);
  log(
    `bench:ab: A = ${settings.a.dir} (${settings.a.commit.slice(0, 7)}, Node ${settings.a.nodeVersion} ${settings.a.node}), ` +
      `B = ${settings.b.dir} (${settings.b.commit.slice(0, 7)}, Node ${settings.b.nodeVersion} ${settings.b.node})\n` +
      `${settings.rounds} round${settings.rounds === 1 ? '' : 's'} × (${settings.warmupS} s warm-up + ${settings.durationS} s), ${settings.connections} connections, ` +
      `server on core ${SERVER_CORE}, load on core ${LOAD_CORE}${hasTaskset() ? '' : ' (unpinned: no taskset)'}; temp ${workDir}`,
  );

  // The PNG the upstream answers as base64 when a logo is kept.
  const logoPng = join(workDir, 'logo.png');
  writeLogoPng(logoPng);
  const upstream = await startHelperServer(
    LOAD_CORE,
    join(__dirname, 'image-upstream.ts'),
    ['0', logoPng],
  );
  const imageUrl = `http://127.0.0.1:${upstream.port}/v1/images/generations`;

  // A, on its own Node.js, migrates the shared databases; B then finds
  // nothing left to run (the same migrations) or runs its new ones on start.
  const migrator = { entry: settings.a.entry, node: settings.a.node };
  backends.push(await sqliteBackend(workDir, migrator));
  if (settings.postgresUrl) {
    backends.push(postgresBackend(settings.postgresUrl, workDir, migrator));
  }
  const stages: AbStage[] = [];
  for (const backend of backends) stages.push(await prepare(backend, imageUrl));

  const load = await LoadGenerator.start();
  const runs: AbBackendRun[] = stages.map((stage) => ({
    kind: stage.backend.kind,
    scenarios: Object.fromEntries(
      settings.scenarios.map((name) => [name, { a: [], b: [] }]),
    ),
    reference: [],
    coldStartsMs: { a: [], b: [] },
    idleRssBytes: { a: [], b: [] },
  }));

  for (let round = 1; round <= settings.rounds; round += 1) {
    const tag = `[round ${round}/${settings.rounds}]`;
    const order =
      round % 2 === 1 ? [settings.a, settings.b] : [settings.b, settings.a];
    for (const [i, stage] of stages.entries()) {
      const kind = stage.backend.kind;
      // Fresh processes every round, started in the round's order: a
      // process started first, or living longer, would otherwise be the
      // same build in every round.
      const services = {} as Record<Build['label'], Service>;
      for (const build of order) {
        const service = await stage.start(build);
        services[build.label] = service;
        runs[i].coldStartsMs[build.label === 'A' ? 'a' : 'b'].push(
          service.coldStartMs,
        );
      }
      // Idle RSS: both processes settled for one second after the last of
      // them answered, before any load; one wait serves both.
      await sleep(1_000);
      const idle = {} as Record<Build['label'], number>;
      for (const build of order) {
        idle[build.label] = rssBytes(services[build.label].pid);
        runs[i].idleRssBytes[build.label === 'A' ? 'a' : 'b'].push(
          idle[build.label],
        );
      }
      log(
        `${tag} ${kind} started ${order.map((b) => `${b.label} (${fmt(services[b.label].coldStartMs)} ms, idle ${fmt(idle[b.label] / MB, 1)} MB)`).join(', then ')}`,
      );
      // Keep-logo's projects are each build's own, made through its API
      // after the idle measurement.
      const assets = {} as Record<Build['label'], AssetTargets | undefined>;
      for (const build of order) {
        assets[build.label] = settings.scenarios.includes('keep-logo')
          ? await prepareAssetTargets(services[build.label].baseUrl)
          : undefined;
      }
      if (kind === 'sqlite' && settings.scenarios.includes('create')) {
        const refDb = freshSqliteCopy(workDir, `reference-${round}`);
        const sample = JSON.parse(
          await runScript(
            SERVER_CORE,
            join(__dirname, 'ref-sqlite-inserts.ts'),
            [refDb, String(settings.warmupS), String(settings.durationS)],
          ),
        ) as SqliteRefSample;
        rmSync(refDb, { force: true });
        runs[i].reference.push(sample);
        log(
          `${tag} ref better-sqlite3: ${fmt(sample.perSecond)} tx/s, ${fmt(sample.cpuUsPerOp)} µs/tx`,
        );
      }
      for (const name of settings.scenarios) {
        const scenario = SCENARIOS.find((s) => s.name === name)!;
        for (const build of order) {
          const service = services[build.label];
          const plan = scenario.plan({
            idsFile: stage.idsFile,
            users: settings.data.users,
            token: '',
            assets: assets[build.label],
          });
          const sample = await measureTimed(
            load,
            service.pid,
            timedJob(settings, service.baseUrl, plan),
            { postgres: kind === 'postgres', serverCore: SERVER_CORE },
          );
          const pair = runs[i].scenarios[name]!;
          (build.label === 'A' ? pair.a : pair.b).push(sample);
          log(
            `${tag} ${kind} ${name} ${build.label}: ${fmt(sample.perSecond)} req/s, ${fmt(sample.cpuUsPerRequest)} µs/req ` +
              `(core 0 ${fmt(sample.serverCoreBusy * 100)}% busy, others ${fmt((sample.coreOthersBusy ?? NaN) * 100)}%), p50 ${fmt(sample.p50Ms, 2)} ms, ${sample.errors} errors`,
          );
          // Kept logos are deleted after their window: no project nears
          // the asset limit and the database keeps its size.
          const kept = assets[build.label];
          if (name === 'keep-logo' && kept) {
            await forgetKeptLogos(service.baseUrl, kept.keeperIds);
          }
        }
      }
      await Promise.all(Object.values(services).map((s) => s.stop()));
    }
  }

  await load.stop();
  const finishedAt = new Date();
  const report = await writeAbReport(
    settings,
    { startedAt, finishedAt },
    {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      // The orchestrator's and load generator's; each build's own is in
      // settings.a / settings.b (nodeVersion).
      node: process.version,
      kernel: release(),
      pinned: hasTaskset(),
      loadAverageAtStart: startLoad,
    },
    runs,
  );
  log(`\n${report.text}`);
  log(`wrote ${report.file}`);
  log(
    report.allPassed
      ? 'every target met'
      : 'some targets are not met (see **FAIL** above)',
  );
}

// The machine's load when the run began: a busy machine means noisier numbers.
const startLoad = loadavg();

main()
  .catch((error: unknown) => {
    // After Ctrl-C the run fails on its killed children: nothing to report.
    if (run.interrupted) return;
    console.error(
      'bench:ab failed:',
      error instanceof Error ? error.stack : error,
    );
    process.exitCode = 1;
  })
  .finally(() => run.cleanup());
