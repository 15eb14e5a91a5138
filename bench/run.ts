import { rmSync, writeFileSync } from 'node:fs';
import { cpus, release } from 'node:os';
import { join } from 'node:path';
import { freshSqliteCopy, postgresBackend, sqliteBackend } from './databases';
import {
  largeListTable,
  largeListTargetsMet,
  measureLargeLists,
  referenceProjectsPerSecond,
  type LargeListRun,
} from './large-lists';
import { forgetKeptLogos } from './kept-logos';
import { LoadGenerator } from './load-client';
import { writeLogoPng } from './logo-png';
import type { TimedJob } from './load-protocol';
import { measureBurst, measureTimed, type TimedSample } from './measure';
import { measureReplicas } from './replicas';
import { writeStoredAnswers } from './stored-answers';
import { rssBytes } from './proc-stats';
import { hasTaskset, pinSelf, runScript, startHelperServer } from './processes';
import {
  type BackendRun,
  type References,
  type SqliteRefSample,
  writeReport,
} from './report';
import { codeVersionOf, startBenchRun } from './bench-run';
import { PACED_SHARE, SCENARIOS } from './scenarios';
import {
  BURST,
  LOAD_CORE,
  MAIN_DATA,
  readSettings,
  REPO_ROOT,
  RESULTS_DIR,
  SERVER_CORE,
} from './settings';
import { DevAuthProvider } from '../dev-servers/auth-provider/dev-auth-provider';
import { prepareStage, type BenchAuth, type Stage } from './stage';

/**
 * `npm run bench`: the performance benchmark. Sets everything up
 * on a fresh temp folder (and fresh PostgreSQL databases when
 * BENCH_POSTGRES_URL is set), runs the interleaved rounds, prints the table
 * and writes bench/results/<timestamp>-<db>.json. Everything it started is
 * stopped and removed at the end, also on failure or Ctrl-C.
 */

const settings = readSettings();
const run = startBenchRun('workspace-bench-');
const { workDir, backends } = run;

const log = (text: string) => console.log(text);

const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toFixed(digits) : '—';

async function main(): Promise<void> {
  const startedAt = new Date();
  // The orchestrator only waits while a window runs; keep it off the server core.
  pinSelf(LOAD_CORE);
  log(
    `bench: ${settings.rounds} round${settings.rounds === 1 ? '' : 's'} × (${settings.warmupS} s warm-up + ${settings.durationS} s), ${settings.connections} connections, ` +
      `server on core ${SERVER_CORE}, load on core ${LOAD_CORE}${hasTaskset() ? '' : ' (unpinned: no taskset)'}; temp ${workDir}`,
  );

  // The PNG the instant upstream answers as base64 (keep-logo) and the
  // asset reference serves.
  const logoPng = join(workDir, 'logo.png');
  const logoPngBytes = writeLogoPng(logoPng);
  const instant = await startHelperServer(
    LOAD_CORE,
    join(__dirname, 'image-upstream.ts'),
    ['0', logoPng],
  );
  const slow = await startHelperServer(
    LOAD_CORE,
    join(__dirname, 'image-upstream.ts'),
    [String(BURST.upstreamDelayMs)],
  );
  const upstreams = {
    instantUrl: `http://127.0.0.1:${instant.port}/v1/images/generations`,
    slowUrl: `http://127.0.0.1:${slow.port}/v1/images/generations`,
  };

  backends.push(await sqliteBackend(workDir));
  if (settings.postgresUrl)
    backends.push(postgresBackend(settings.postgresUrl, workDir));
  const wanted = (name: string) => !settings.only || settings.only.has(name);
  // The OpenID Provider runs in this process: it signs one token, then
  // only serves its key set once to each oidc server.
  let authProvider: DevAuthProvider | undefined;
  let auth: BenchAuth | undefined;
  if (wanted('get-by-id-oidc')) {
    authProvider = await DevAuthProvider.start();
    const adminRole = 'bench-admin';
    auth = {
      issuer: authProvider.issuer,
      audience: authProvider.audience,
      adminRole,
      token: await authProvider.token({
        user: 'bench',
        roles: [adminRole],
        expiresIn: 24 * 3600,
      }),
    };
  }
  const stages: Stage[] = [];
  for (const backend of backends) {
    stages.push(
      await prepareStage(backend, settings, workDir, upstreams, auth),
    );
  }

  // Reference 1 answers the exact bytes of a real get-by-id answer.
  const bodyFile = join(workDir, 'get-by-id-body.json');
  const sampleBody = await fetch(
    `${stages[0].main.baseUrl}/api/projects/${stages[0].sampleId}`,
  );
  writeFileSync(bodyFile, Buffer.from(await sampleBody.arrayBuffer()));
  const refHttp = await startHelperServer(
    SERVER_CORE,
    join(__dirname, 'ref-http-server.ts'),
    [bodyFile],
  );
  const refHttpUrl = `http://127.0.0.1:${refHttp.port}`;
  // Reference 2 serves the kept logo's bytes, as the asset content route does.
  const refAsset = wanted('asset-content')
    ? await startHelperServer(
        SERVER_CORE,
        join(__dirname, 'ref-http-server.ts'),
        [logoPng, 'image/png'],
      )
    : undefined;

  // Reference 3 (SQLite): a minimal NestJS app reading the same file.
  const sqliteStage = stages.find((stage) => stage.sqliteFile);
  const refNest = sqliteStage
    ? await startHelperServer(
        SERVER_CORE,
        join(__dirname, 'minimal-nest-app.ts'),
        [sqliteStage.sqliteFile!],
      )
    : undefined;
  // Reference 4 (SQLite): the same app, each project's answer kept whole.
  let refStored: typeof refNest;
  if (sqliteStage) {
    const started = Date.now();
    const storedAnswers = join(workDir, 'stored-answers.db');
    const rows = writeStoredAnswers({
      sqliteFile: sqliteStage.sqliteFile!,
      bodyFile,
      sampleId: stages[0].sampleId,
      outFile: storedAnswers,
    });
    log(
      `[sqlite] ${rows} stored answers written in ${fmt((Date.now() - started) / 1000, 1)} s`,
    );
    refStored = await startHelperServer(
      SERVER_CORE,
      join(__dirname, 'minimal-nest-app.ts'),
      [sqliteStage.sqliteFile!, '0', storedAnswers],
    );
  }

  const load = await LoadGenerator.start();
  const timed = (
    baseUrl: string,
    plan: ReturnType<(typeof SCENARIOS)[number]['plan']>,
  ) => ({
    type: 'timed' as const,
    baseUrl,
    plan,
    connections: settings.connections,
    warmupS: settings.warmupS,
    durationS: settings.durationS,
  });

  const refs: References = {
    http: [],
    httpAsset: [],
    minimalNest: [],
    minimalNestConstant: [],
    minimalNestStored: [],
    sqliteInserts: [],
  };
  const runs: BackendRun[] = stages.map((stage) => ({
    kind: stage.kind,
    scenarios: Object.fromEntries(
      SCENARIOS.map((s) => [s.name, []]),
    ) as unknown as BackendRun['scenarios'],
    bursts: [],
    coldStarts: [],
    replicas: { one: [], two: [] },
    listAllRss: {
      beforeFirstBytes: rssBytes(stage.small.pid),
      afterEachBytes: [],
    },
  }));

  for (let round = 1; round <= settings.rounds; round += 1) {
    const tag = `[round ${round}/${settings.rounds}]`;

    const http = await measureTimed(
      load,
      refHttp.child.pid!,
      timed(refHttpUrl, {
        kind: 'fixed-get',
        // Same length as the service's requests; the server ignores it.
        path: `/api/projects/${stages[0].sampleId}`,
      }),
    );
    refs.http.push(http);
    log(
      `${tag} ref node:http: ${fmt(http.perSecond)} req/s, p50 ${fmt(http.p50Ms, 2)} ms, ` +
        `${fmt(http.cpuUsPerRequest)} µs/req, core 0 ${fmt(http.serverCoreBusy * 100)}% busy`,
    );

    if (refAsset) {
      const asset = await measureTimed(
        load,
        refAsset.child.pid!,
        timed(`http://127.0.0.1:${refAsset.port}`, {
          kind: 'download',
          path: stages[0].assets.contentPath,
        }),
      );
      refs.httpAsset.push(asset);
      log(
        `${tag} ref node:http, ${fmt(logoPngBytes / 2 ** 20, 2)} MB PNG: ${fmt(asset.perSecond)} req/s, p50 ${fmt(asset.p50Ms, 2)} ms, ` +
          `p99 ${fmt(asset.p99Ms, 2)} ms, ${fmt(asset.cpuUsPerRequest)} µs/req, core 0 ${fmt(asset.serverCoreBusy * 100)}% busy, ` +
          `RSS ${fmt(asset.rssBytes / 2 ** 20, 1)} MB`,
      );
    }

    // One window of a minimal NestJS app: its sample kept and logged.
    const measureMinimal = async (
      server: NonNullable<typeof refNest>,
      plan: Parameters<typeof timed>[1],
      label: string,
      samples: TimedSample[],
    ) => {
      const sample = await measureTimed(
        load,
        server.child.pid!,
        timed(`http://127.0.0.1:${server.port}`, plan),
      );
      samples.push(sample);
      log(
        `${tag} ref ${label}: ${fmt(sample.perSecond)} req/s, p50 ${fmt(sample.p50Ms, 2)} ms, ` +
          `${fmt(sample.cpuUsPerRequest)} µs/req, core 0 ${fmt(sample.serverCoreBusy * 100)}% busy`,
      );
    };
    const randomIds = {
      kind: 'get-by-id' as const,
      idsFile: sqliteStage?.idsFile ?? '',
    };
    if (refNest) {
      await measureMinimal(
        refNest,
        { kind: 'fixed-get', path: '/health/ready' },
        'minimal NestJS, constant body',
        refs.minimalNestConstant,
      );
      await measureMinimal(
        refNest,
        randomIds,
        'minimal NestJS',
        refs.minimalNest,
      );
    }
    if (refStored) {
      await measureMinimal(
        refStored,
        randomIds,
        'minimal NestJS, one stored answer',
        refs.minimalNestStored,
      );
    }

    const refDb = freshSqliteCopy(workDir, `reference-${round}`);
    const inserts = JSON.parse(
      await runScript(SERVER_CORE, join(__dirname, 'ref-sqlite-inserts.ts'), [
        refDb,
        String(settings.warmupS),
        String(settings.durationS),
      ]),
    ) as SqliteRefSample;
    rmSync(refDb, { force: true });
    refs.sqliteInserts.push(inserts);
    log(
      `${tag} ref better-sqlite3: ${fmt(inserts.perSecond)} tx/s, ${fmt(inserts.cpuUsPerOp)} µs/tx`,
    );

    for (const [i, stage] of stages.entries()) {
      const cold = await stage.coldStart();
      runs[i].coldStarts.push(cold);
      log(
        `${tag} ${stage.kind} cold start ${fmt(cold.coldStartMs)} ms, idle RSS ${fmt(cold.idleRssBytes / 2 ** 20, 1)} MB`,
      );
    }

    for (const scenario of SCENARIOS.filter(
      (s) => !s.pacedOf && wanted(s.name),
    )) {
      for (const [i, stage] of stages.entries()) {
        const server = stage[scenario.server];
        if (!server) continue;
        const context = {
          idsFile: stage.idsFile,
          users: MAIN_DATA.users,
          token: auth?.token ?? '',
          assets: stage.assets,
        };
        const measure = async (
          name: (typeof scenario)['name'],
          job: TimedJob,
        ) => {
          const sample = await measureTimed(load, server.pid, job, {
            postgres: stage.kind === 'postgres',
          });
          runs[i].scenarios[name].push(sample);
          log(
            `${tag} ${stage.kind} ${name}: ${fmt(sample.perSecond)} req/s${job.rate ? ` (asked ${fmt(job.rate)})` : ''}, p50 ${fmt(sample.p50Ms, 2)} ms, ` +
              `p99 ${fmt(sample.p99Ms, 2)} ms, ${sample.errors} errors, ${fmt(sample.cpuUsPerRequest)} µs/req ` +
              `(core 0 ${fmt(sample.serverCoreBusy * 100)}% busy), RSS ${fmt(sample.rssBytes / 2 ** 20, 1)} MB`,
          );
          return sample;
        };
        const sample = await measure(
          scenario.name,
          timed(server.baseUrl, scenario.plan(context)),
        );
        if (scenario.name === 'list-all')
          runs[i].listAllRss.afterEachBytes.push(sample.rssBytes);
        if (scenario.name === 'keep-logo') {
          const deleted = await forgetKeptLogos(
            server.baseUrl,
            stage.assets.keeperIds,
          );
          log(`${tag} ${stage.kind} deleted the ${deleted} logos kept`);
        }
        // Latency at a fixed rate: half of what this round just reached.
        for (const paced of SCENARIOS.filter(
          (s) => s.pacedOf === scenario.name,
        )) {
          await measure(paced.name, {
            ...timed(server.baseUrl, paced.plan(context)),
            rate: sample.perSecond * PACED_SHARE,
          });
        }
      }
    }

    for (const [i, stage] of stages.entries()) {
      if (!wanted('burst')) break;
      const server = await stage.startBurstServer();
      try {
        const burst = await measureBurst(load, server.pid, {
          type: 'burst',
          baseUrl: server.baseUrl,
          requests: BURST.requests,
          warmupRequests: BURST.warmupRequests,
        });
        runs[i].bursts.push(burst);
        log(
          `${tag} ${stage.kind} burst: ${fmt(burst.elapsedMs)} ms, ${burst.errors} errors, ` +
            `RSS ${fmt(burst.rssBeforeBytes / 2 ** 20, 1)} → ${fmt(burst.peakRssBytes / 2 ** 20, 1)} MB, ` +
            `${burst.listenOverflows} listen-queue overflows`,
        );
      } finally {
        await server.stop();
      }
    }
    for (const [i, stage] of stages.entries()) {
      if (!wanted('replicas') || stage.kind !== 'postgres') continue;
      const replicas = await stage.startReplicas(2);
      try {
        const job = {
          type: 'timed' as const,
          plan: {
            kind: 'mixed' as const,
            idsFile: stage.idsFile,
            users: MAIN_DATA.users,
          },
          connections: settings.connections,
          warmupS: settings.warmupS,
          durationS: settings.durationS,
        };
        for (const [key, servers] of [
          ['one', replicas.slice(0, 1)],
          ['two', replicas],
        ] as const) {
          const sample = await measureReplicas(load, [...servers], job);
          runs[i].replicas[key].push(sample);
          log(
            `${tag} ${stage.kind} replicas ×${sample.processes}: ${fmt(sample.perSecond)} req/s, p99 ${fmt(sample.p99Ms, 2)} ms, ` +
              `${sample.errors} errors; CPU µs/req service ${fmt(sample.serviceCpuUs.reduce((a, b) => a + b, 0) / sample.requests)}, ` +
              `PostgreSQL ${fmt(sample.postgresCpuUs / sample.requests)}, load ${fmt(sample.loadCpuUs / sample.requests)}`,
          );
        }
      } finally {
        await Promise.all(replicas.map((replica) => replica.stop()));
      }
    }
  }

  // Once, after the rounds: seeding 500,000 projects takes minutes.
  const largeLists: LargeListRun[] = [];
  if (wanted('list-all-large')) {
    for (const [i, stage] of stages.entries()) {
      largeLists.push({
        kind: stage.kind,
        referenceProjectsPerSecond: await referenceProjectsPerSecond(
          stage.small.baseUrl,
        ),
        results: await measureLargeLists(backends[i], workDir, log),
      });
    }
  }

  await load.stop();
  await authProvider?.close();
  const finishedAt = new Date();
  const report = await writeReport(
    {
      settings,
      startedAt,
      finishedAt,
      code: codeVersionOf(REPO_ROOT),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        node: process.version,
        kernel: release(),
        pinned: hasTaskset(),
      },
    },
    refs,
    runs,
  );
  log(`\n${report.text}`);
  for (const file of report.files) log(`wrote ${file}`);
  if (largeLists.length > 0) {
    const file = join(
      RESULTS_DIR,
      `${startedAt
        .toISOString()
        .replace(/:/g, '-')
        .replace(/\.\d+Z$/, 'Z')}-large-lists.json`,
    );
    writeFileSync(
      file,
      `${JSON.stringify({ startedAt, code: codeVersionOf(REPO_ROOT), runs: largeLists }, null, 2)}\n`,
    );
    log(
      `\nLarge lists (one full list each, pod-sized heap):\n${largeListTable(largeLists)}`,
    );
    log(`wrote ${file}`);
  }
  log(
    report.allPassed && largeListTargetsMet(largeLists)
      ? 'every target met'
      : 'some targets are not met (see **FAIL** above)',
  );
}

main()
  .catch((error: unknown) => {
    // After Ctrl-C the run fails on its killed children: nothing to report.
    if (run.interrupted) return;
    console.error(
      'bench failed:',
      error instanceof Error ? error.stack : error,
    );
    process.exitCode = 1;
  })
  .finally(() => run.cleanup());
