import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteBackend } from './databases';
import { POD_HEAP_FLAGS } from './pod-heap';
import { cpuTimeUs, MB, rssBytes } from './proc-stats';
import { pinSelf, sleep, stopAllProcesses } from './processes';
import { startService } from './service';
import { LOAD_CORE, positive, RESULTS_DIR, SERVER_ENTRY } from './settings';
import { serviceEnv } from './stage';
import { median } from './stats';

/**
 * `npm run bench:cold-start`: fresh processes on a seeded SQLite file (the
 * migrations already applied), in the pod's shape (heap flags, one core),
 * started in rotating order each round: spawn to the first 200 of
 * /health/ready (wall time, and the process's CPU time then, which a busy
 * machine disturbs less), and RSS one second later. Targets: the bundle
 * with its compile cache filled (a restart in the same pod), the bundle on
 * an empty cache (a new pod), the bundle with the cache off, and with
 * BENCH_BASELINE_ENTRY other builds' entries, comma-separated, without
 * the cache (the first, e.g. an unbundled dist/src/main.js, is named
 * "before").
 */

interface Target {
  name: string;
  entry: string;
  /** A fresh cache folder for every start, or none. */
  env: (round: number) => Record<string, string>;
}

interface Sample {
  target: string;
  round: number;
  wallMs: number;
  cpuMs: number;
  idleRssMb: number;
}

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  const rounds = positive('BENCH_ROUNDS', 7);
  const workDir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    const backend = await sqliteBackend(workDir);
    const seeded = await backend.seeded('cold', {
      projects: 20_000,
      users: 1_000,
    });
    const filledCache = join(workDir, 'cache-filled');
    const targets: Target[] = [
      {
        name: 'bundle, compile cache filled',
        entry: SERVER_ENTRY,
        env: () => ({ NODE_COMPILE_CACHE: filledCache }),
      },
      {
        name: 'bundle, compile cache empty',
        entry: SERVER_ENTRY,
        env: (round) => ({
          NODE_COMPILE_CACHE: join(workDir, `cache-empty-${round}`),
        }),
      },
      {
        name: 'bundle, compile cache off',
        entry: SERVER_ENTRY,
        env: () => ({ NODE_DISABLE_COMPILE_CACHE: '1' }),
      },
      ...(process.env.BENCH_BASELINE_ENTRY ?? '')
        .split(',')
        .filter((entry) => entry !== '')
        .map((entry, i) => ({
          name: i === 0 ? 'before' : entry,
          entry,
          env: () => ({ NODE_DISABLE_COMPILE_CACHE: '1' }),
        })),
    ];
    // Fills the cache the first target reads.
    const filler = await startService({
      name: 'fill-cache',
      databaseUrl: seeded.url,
      workDir,
      env: { ...serviceEnv(), NODE_COMPILE_CACHE: filledCache },
      readyPath: '/health/ready',
    });
    await filler.stop();

    const samples: Sample[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      const order = targets.map(
        (_, i) => targets[(i + round - 1) % targets.length],
      );
      for (const target of order) {
        const service = await startService({
          name: 'cold',
          databaseUrl: seeded.url,
          workDir,
          env: { ...serviceEnv(), ...target.env(round) },
          nodeArgs: POD_HEAP_FLAGS,
          entry: target.entry,
          readyPath: '/health/ready',
        });
        try {
          const cpuMs = cpuTimeUs(service.pid) / 1000;
          await sleep(1_000);
          const sample = {
            target: target.name,
            round,
            wallMs: service.coldStartMs,
            cpuMs,
            idleRssMb: rssBytes(service.pid) / MB,
          };
          samples.push(sample);
          console.log(
            `round ${round} ${target.name}: ${sample.wallMs.toFixed(0)} ms, CPU ${sample.cpuMs.toFixed(0)} ms, idle RSS ${sample.idleRssMb.toFixed(1)} MB`,
          );
        } finally {
          await service.stop();
        }
      }
    }

    console.log(`\nCold start, medians over ${rounds} rounds`);
    console.log(
      '| target | spawn → ready (ms) | CPU until ready (ms) | idle RSS (MB) |',
    );
    console.log('| --- | ---: | ---: | ---: |');
    for (const target of targets) {
      const mine = samples.filter((s) => s.target === target.name);
      const m = (pick: (s: Sample) => number, digits: number) =>
        median(mine.map(pick)).toFixed(digits);
      console.log(
        `| ${target.name} | ${m((s) => s.wallMs, 0)} | ${m((s) => s.cpuMs, 0)} | ${m((s) => s.idleRssMb, 1)} |`,
      );
    }
    mkdirSync(RESULTS_DIR, { recursive: true });
    const stamp = new Date().toISOString().replace(/:/g, '-').slice(0, 19);
    writeFileSync(
      join(RESULTS_DIR, `cold-start-${stamp}Z.json`),
      `${JSON.stringify({ rounds, samples }, null, 2)}\n`,
    );
  } finally {
    await stopAllProcesses();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch(async (error: unknown) => {
  console.error(error);
  await stopAllProcesses();
  process.exit(1);
});
