import { spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POD_HEAP_FLAGS, podMemoryLimitBytes } from './pod-heap';
import { cpuTimeUs, rssBytes } from './proc-stats';
import { hasTaskset, pinSelf, sleep } from './processes';
import { freePort } from './service';
import {
  LOAD_CORE,
  positive,
  RESULTS_DIR,
  SERVER_CORE,
  SERVER_ENTRY,
} from './settings';

/**
 * `npm run bench:pod`: the service as the Deployment's pod runs it — inside
 * a memory cgroup of the container's limits.memory where this machine lets
 * the bench make one, else on the host with a warning — once with the
 * Deployment's NODE_OPTIONS (bench/pod-heap.ts) and once without (what V8
 * chooses by itself in that cgroup), in alternating rounds. Reported per
 * variant, median over the rounds: idle RSS (after start, no request yet),
 * CPU per request for GET by id and for a list of 20 projects, RSS after
 * the load.
 */

const ROUNDS = positive('BENCH_ROUNDS', 3);
const REQUESTS = positive('BENCH_POD_REQUESTS', 4000);
const CONCURRENCY = 8;
const IDLE_SETTLE_MS = 5_000;
const USER = 'pod-bench-user';

interface Variant {
  name: string;
  nodeOptions: string;
}
const VARIANTS: Variant[] = [
  { name: 'V8 defaults', nodeOptions: '' },
  { name: 'pod NODE_OPTIONS', nodeOptions: POD_HEAP_FLAGS.join(' ') },
  // Other flags to weigh against the pod's before changing the Deployment.
  ...(process.env.BENCH_POD_CANDIDATE
    ? [{ name: 'candidate', nodeOptions: process.env.BENCH_POD_CANDIDATE }]
    : []),
];

interface Sample {
  idleRssMb: number;
  getByIdCpuUs: number;
  list20CpuUs: number;
  loadedRssMb: number;
  heapLimitMb: number;
}

/** A child memory cgroup of this process's own, or undefined if not allowed. */
interface Cgroup {
  procs: string;
  remove(): void;
  /** How many processes the kernel killed in it for want of memory. */
  oomKills(): number;
}

function oomKills(dir: string): number {
  for (const file of ['memory.events', 'memory.oom_control']) {
    try {
      const text = readFileSync(join(dir, file), 'utf8');
      const match = /^oom_kill (\d+)$/m.exec(text);
      if (match) return Number(match[1]);
    } catch {
      // The other cgroup version's file.
    }
  }
  return NaN;
}

function makeCgroup(limitBytes: number): Cgroup | undefined {
  const lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const v1 = lines.find((line) => /^\d+:memory:/.test(line));
  const v2 = lines.find((line) => line.startsWith('0::'));
  const candidates: { dir: string; limitFile: string }[] = [];
  if (v1) {
    candidates.push({
      dir: join(
        '/sys/fs/cgroup/memory',
        v1.split(':')[2],
        `pod-bench-${process.pid}`,
      ),
      limitFile: 'memory.limit_in_bytes',
    });
  }
  if (v2) {
    candidates.push({
      dir: join('/sys/fs/cgroup', v2.slice(3), `pod-bench-${process.pid}`),
      limitFile: 'memory.max',
    });
  }
  for (const { dir, limitFile } of candidates) {
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      writeFileSync(join(dir, limitFile), String(limitBytes));
      return {
        procs: join(dir, 'cgroup.procs'),
        remove: () => rmdirSync(dir),
        oomKills: () => oomKills(dir),
      };
    } catch {
      rmdirSync(dir);
    }
  }
  return undefined;
}

async function waitReady(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('service exited at start');
    const status = await fetch(`${base}/health/ready`)
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return;
    await sleep(100);
  }
  throw new Error('service not ready after 30 s');
}

/** `count` requests to `path`, CONCURRENCY at a time; every one must be 200. */
async function drive(base: string, path: string, count: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(`${base}${path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function cpuPerRequest(
  pid: number,
  base: string,
  path: string,
): Promise<number> {
  await drive(base, path, Math.ceil(REQUESTS / 4)); // warm-up, not counted
  const before = cpuTimeUs(pid);
  await drive(base, path, REQUESTS);
  return (cpuTimeUs(pid) - before) / REQUESTS;
}

async function measure(
  variant: Variant,
  cgroup: Cgroup | undefined,
): Promise<Sample> {
  const cgroupProcs = cgroup?.procs;
  const dir = mkdtempSync(join(tmpdir(), 'pod-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const pin = hasTaskset() ? `exec taskset -c ${SERVER_CORE} ` : 'exec ';
  // The shell joins the cgroup, then becomes the service (same pid).
  const script =
    (cgroupProcs ? `echo $$ > ${cgroupProcs} && ` : '') +
    `${pin}"$NODE_BINARY" "$SERVER_ENTRY"`;
  const child = spawn('sh', ['-c', script], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_BINARY: process.execPath,
      SERVER_ENTRY,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      DATABASE_URL: `file:${join(dir, 'bench.db')}`,
      IMAGE_API_KEY: 'bench-key',
      ...(variant.nodeOptions ? { NODE_OPTIONS: variant.nodeOptions } : {}),
    },
  });
  let exit = '';
  child.once(
    'exit',
    (code, signal) => (exit = `code ${code}, signal ${signal}`),
  );
  const alive = () => {
    if (exit) throw new Error(`${variant.name}: the service exited (${exit})`);
  };
  try {
    await waitReady(base, child);
    const pid = child.pid!;
    await sleep(IDLE_SETTLE_MS);
    alive();
    const idleRssMb = rssBytes(pid) / 2 ** 20;
    let id = '';
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${base}/api/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: `Pod bench ${i}`,
          description: 'A project of the pod-shape bench',
          userId: USER,
        }),
      });
      if (res.status !== 201) throw new Error(`create: ${res.status}`);
      id = ((await res.json()) as { project: { id: string } }).project.id;
    }
    const getByIdCpuUs = await cpuPerRequest(pid, base, `/api/projects/${id}`);
    const list20CpuUs = await cpuPerRequest(
      pid,
      base,
      `/api/projects?userId=${USER}`,
    );
    alive();
    const loadedRssMb = rssBytes(pid) / 2 ** 20;
    const heapLimitMb = await heapLimitOf(variant, cgroupProcs);
    return { idleRssMb, getByIdCpuUs, list20CpuUs, loadedRssMb, heapLimitMb };
  } catch (error) {
    // Say whether the service died, and whether the kernel killed it.
    await sleep(200);
    throw new Error(
      `${variant.name}: ${error instanceof Error ? error.message : String(error)}` +
        ` (service: ${exit || 'running'}; OOM kills in the cgroup: ${cgroup?.oomKills() ?? 'no cgroup'})`,
      { cause: error },
    );
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** V8's heap limit for the variant, in the same cgroup. */
async function heapLimitOf(
  variant: Variant,
  cgroupProcs: string | undefined,
): Promise<number> {
  const script =
    (cgroupProcs ? `echo $$ > ${cgroupProcs} && ` : '') +
    `exec "$NODE_BINARY" -p "require('v8').getHeapStatistics().heap_size_limit"`;
  const child = spawn('sh', ['-c', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_BINARY: process.execPath,
      ...(variant.nodeOptions ? { NODE_OPTIONS: variant.nodeOptions } : {}),
    },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return Number(out.trim()) / 2 ** 20;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  pinSelf(LOAD_CORE);
  const limit = podMemoryLimitBytes();
  const cgroup = makeCgroup(limit);
  if (!cgroup) {
    console.warn(
      'No memory cgroup could be made here: the service runs on the host, with the flags only (V8 sizes its default heap from the machine).',
    );
  }
  const samples: Record<string, Sample[]> = {};
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Each variant first in turn, so none always follows the same one.
      const order = VARIANTS.map(
        (_, i) => VARIANTS[(i + round) % VARIANTS.length],
      );
      for (const variant of order) {
        const sample = await measure(variant, cgroup);
        (samples[variant.name] ??= []).push(sample);
        console.log(
          `round ${round + 1} ${variant.name}: ${JSON.stringify(sample)}`,
        );
      }
    }
  } finally {
    cgroup?.remove();
  }
  const rows = VARIANTS.map((variant) => {
    const list = samples[variant.name];
    const pick = (key: keyof Sample) => median(list.map((s) => s[key]));
    return {
      variant: variant.name,
      nodeOptions: variant.nodeOptions || '(unset)',
      heapLimitMb: pick('heapLimitMb'),
      idleRssMb: pick('idleRssMb'),
      getByIdCpuUs: pick('getByIdCpuUs'),
      list20CpuUs: pick('list20CpuUs'),
      loadedRssMb: pick('loadedRssMb'),
    };
  });
  console.table(rows);
  const at = new Date().toISOString();
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(
    RESULTS_DIR,
    `${at.replace(/[:.]/g, '-').replace(/-\d+Z$/, 'Z')}-pod-shape.json`,
  );
  writeFileSync(
    file,
    JSON.stringify(
      {
        at,
        node: process.version,
        cgroupMemoryLimitBytes: cgroup ? limit : null,
        rounds: ROUNDS,
        requestsPerRoute: REQUESTS,
        concurrency: CONCURRENCY,
        rows,
        samples,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`Written to ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
