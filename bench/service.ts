import { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hasExited, sleep, spawnPinned, stopProcess } from './processes';
import { SERVER_CORE, SERVER_ENTRY } from './settings';

/**
 * The service as a real process (`node dist/service/main.js`), the way it is
 * deployed, pinned to the server core.
 */

/**
 * Variables the service reads (whole families, so new ones are covered too).
 * None leaks in from the caller's shell; each process gets exactly its own.
 */
const SERVICE_VARIABLES =
  /^(NODE_ENV|NODE_OPTIONS|PORT|HOST|MIGRATIONS_RUN|BODY_LIMIT|LOG_LEVEL|TRUST_PROXY|PROCESS_ROLE|(DATABASE|IMAGE|LOGO|REDIS|OTEL|AUTH|ASSET|TASK|TEXT|CODE|EVENTS|SITES|RUNS)_.*)$/;

export interface ServiceOptions {
  name: string;
  databaseUrl: string;
  /** Folder for the process's working directory and its log files. */
  workDir: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
  /** Polled until it answers 200 (default: an empty list, the cold start). */
  readyPath?: string;
  /** Unpinned instead of on the server core (the replicas). */
  unpinned?: boolean;
  /**
   * The built entry point to run; default this checkout's
   * `dist/service/main.js` (the A/B runs another checkout's beside it).
   */
  entry?: string;
  /**
   * The Node.js binary that runs it; default the bench's own
   * (`process.execPath`). The A/B runs each build on its own runtime.
   */
  node?: string;
}

export interface Service {
  readonly name: string;
  readonly baseUrl: string;
  readonly pid: number;
  /** Spawn to the first 200 on GET /api/projects?userId=nobody. */
  readonly coldStartMs: number;
  /** The process has ended (it was stopped, or it failed). */
  exited(): boolean;
  /** The last lines it wrote to stderr (its log folder's .err.log). */
  stderrTail(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolvePromise) =>
    server.once('listening', resolvePromise),
  );
  const { port } = server.address() as AddressInfo;
  await new Promise((resolvePromise) => server.close(resolvePromise));
  return port;
}

/** The status of one GET, or 0 when nothing answers yet. */
export function probe(url: string): Promise<number> {
  return new Promise((resolvePromise) => {
    const req = request(url, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      res.once('end', () => resolvePromise(res.statusCode ?? 0));
      res.once('error', () => resolvePromise(0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolvePromise(0));
    req.end();
  });
}

const READY_TIMEOUT_MS = 60_000;

let traceSink: Promise<string> | undefined;

/**
 * BENCH_TRACING=1: an OTLP/HTTP endpoint in this (orchestrator) process
 * that reads and drops every export, so the service pays for tracing at
 * 100% sampling (span creation, batching, encoding, sending) and nothing
 * else. Started once, on first use; it ends with the orchestrator.
 */
function traceSinkEndpoint(): Promise<string> {
  traceSink ??= new Promise((resolvePromise) => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.unref();
      resolvePromise(`http://127.0.0.1:${port}`);
    });
  });
  return traceSink;
}

export async function startService(options: ServiceOptions): Promise<Service> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (SERVICE_VARIABLES.test(name)) delete env[name];
  }
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: options.databaseUrl,
    // The published-sites listener on a port of its own choosing: several
    // services run at once, and none is asked for a site unless told.
    SITES_PORT: '0',
    ...(process.env.BENCH_TRACING === '1'
      ? {
          OTEL_EXPORTER_OTLP_ENDPOINT: await traceSinkEndpoint(),
          OTEL_TRACES_SAMPLER: 'always_on',
        }
      : {}),
    ...options.env,
  });
  const logBase = join(options.workDir, `${options.name}-${port}`);
  const out = openSync(`${logBase}.out.log`, 'w');
  const err = openSync(`${logBase}.err.log`, 'w');
  const started = performance.now();
  let child: ChildProcess;
  try {
    // The working directory is the run's temp folder, so a developer's .env
    // (read by the service outside NODE_ENV=test) cannot change the run.
    child = spawnPinned(
      options.unpinned ? undefined : SERVER_CORE,
      options.node ?? process.execPath,
      [...(options.nodeArgs ?? []), options.entry ?? SERVER_ENTRY],
      { env, cwd: options.workDir, stdio: ['ignore', out, err] },
    );
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  const stderrTail = () =>
    readFileSync(`${logBase}.err.log`, 'utf8')
      .split('\n')
      .slice(-20)
      .join('\n');

  // Polled often: cold start is reported in milliseconds.
  const readyUrl = `${baseUrl}${options.readyPath ?? '/api/projects?userId=nobody'}`;
  for (;;) {
    if (hasExited(child)) {
      throw new Error(
        `${options.name} exited before answering (code ${child.exitCode}):\n${stderrTail()}`,
      );
    }
    if ((await probe(readyUrl)) === 200) break;
    if (performance.now() - started > READY_TIMEOUT_MS) {
      await stopProcess(child);
      throw new Error(`${options.name} did not answer 200:\n${stderrTail()}`);
    }
    await sleep(5);
  }
  const coldStartMs = performance.now() - started;
  return {
    name: options.name,
    baseUrl,
    pid: child.pid ?? -1,
    coldStartMs,
    exited: () => hasExited(child),
    stderrTail,
    stop: () => stopProcess(child),
  };
}
