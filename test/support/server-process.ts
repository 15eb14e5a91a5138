import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

export const REPO_ROOT = resolve(__dirname, '..', '..');
/** The production bundle (scripts/bundle-service.ts), as the image runs it. */
export const SERVER_ENTRY = join(REPO_ROOT, 'dist', 'service', 'main.js');

/**
 * Every variable the service reads. None is inherited from the environment
 * Jest runs in (a developer's IMAGE_API_KEY, Jest's NODE_ENV=test): a child
 * sees only what its test sets, plus the defaults below.
 */
const SERVICE_VARIABLES = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_SSL',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATABASE_LIST_POOL_SIZE',
  'LIST_IDLE_TIMEOUT_MS',
  'MIGRATIONS_RUN',
  'BODY_LIMIT',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'CORS_ORIGINS',
  'SHUTDOWN_TIMEOUT_MS',
  'IMAGE_API_KEY',
  'IMAGE_API_URL',
  'IMAGE_MODEL',
  'IMAGE_QUALITY',
  'IMAGE_RESPONSE_FORMAT',
  'IMAGE_MAX_BYTES',
  'LOGO_URL_TTL_S',
  'PUBLIC_BASE_URL',
  'IMAGE_API_TIMEOUT_MS',
  'IMAGE_API_MAX_RETRIES',
  'IMAGE_API_DEADLINE_MS',
  'IMAGE_API_RETRY_BASE_MS',
  'IMAGE_API_RETRY_MAX_MS',
  'IMAGE_API_RETRY_AFTER_CAP_MS',
  'IMAGE_API_CONCURRENCY',
  'IMAGE_API_QUEUE_LIMIT',
  'IMAGE_API_BUSY_RETRY_AFTER_S',
  'LOGO_RATE_LIMIT',
  'LOGO_RATE_WINDOW_S',
  'PROJECT_CREATE_RATE_LIMIT',
  'PROJECT_CREATE_RATE_WINDOW_S',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'TRUST_PROXY',
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'ASSET_STORE',
  'ASSET_MAX_PER_PROJECT',
  'ASSET_URL_TTL_S',
  'ASSET_URL_SIGNING_KEY',
  'ASSET_S3_BUCKET',
  'ASSET_S3_ENDPOINT',
  'ASSET_S3_REGION',
  'ASSET_S3_FORCE_PATH_STYLE',
  'ASSET_S3_PREFIX',
  'ASSET_S3_SWEEP_GRACE_S',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
];

const READY_POLL_MS = 50;
const READY_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
const RUN_TO_EXIT_TIMEOUT_MS = 10_000;

export interface ProcessOptions {
  /**
   * Working directory of the child. Defaults to the repository root, as
   * `npm start` would; pass a temporary folder to keep a developer's .env
   * (which ConfigModule reads outside NODE_ENV=test) out of the test.
   */
  cwd?: string;
  /** Node options before the entry, e.g. `--expose-gc` or `-r <preload>`. */
  nodeArgs?: string[];
  /** Opens an IPC channel (for a preloaded diagnostic; see `ask`). */
  ipc?: boolean;
}

export interface ExitResult {
  /** The exit code; null when the process ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface ServerProcess {
  /** e.g. http://127.0.0.1:41234, for supertest: `request(server.baseUrl)`. */
  readonly baseUrl: string;
  readonly pid: number;
  /** Everything the process wrote so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** The signal that ended the process (null while running or on exit). */
  readonly signal: NodeJS.Signals | null;
  /**
   * Sends SIGTERM, then SIGKILL if the process is still running after 5 s.
   * Resolves with the exit code (null when it ended by a signal).
   */
  stop(): Promise<number | null>;
  /**
   * Resolves with the exit code once the process has ended by itself (after
   * a signal the test sent, say), without sending anything.
   */
  waitForExit(): Promise<number | null>;
  /** Sends SIGKILL and resolves once the process has gone. */
  kill(): Promise<void>;
  /**
   * Sends `message` over the IPC channel (ipc: true) and resolves with the
   * next message the process sends back.
   */
  ask(message: unknown): Promise<unknown>;
}

/** A port that was free a moment ago: listen on port 0, read it, close. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function childEnv(env: Env): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete result[name];
  const merged: Env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Any free port: servers run side by side.
    SITES_PORT: '0',
    ...env,
  };
  for (const [name, value] of Object.entries(merged)) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}

function assertBuilt(): void {
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(
      `${SERVER_ENTRY} does not exist: run \`npm run build\` first.`,
    );
  }
}

interface Running {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
}

function launch(env: Env, options: ProcessOptions): Running {
  assertBuilt();
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), SERVER_ENTRY],
    {
      cwd: options.cwd ?? REPO_ROOT,
      env: childEnv(env),
      stdio: options.ipc
        ? ['ignore', 'pipe', 'pipe', 'ipc']
        : ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr?.on('data', (chunk: string) => (output.stderr += chunk));
  let done = false;
  // 'close' (not 'exit'): the output pipes are drained by then.
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((resolvePromise, reject) => {
    child.once('error', (error) => {
      done = true;
      reject(error);
    });
    child.once('close', (code, signal) => {
      done = true;
      resolvePromise({ code, signal });
    });
  });
  // A failed spawn is reported by whoever awaits `exited`.
  exited.catch(() => undefined);
  return { child, output, exited, hasExited: () => done };
}

/** One GET; resolves with the status, rejects when nothing answers. */
function probe(url: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    // agent:false: no keep-alive socket outlives the probe.
    const req = get(url, { agent: false, timeout: 1_000 }, (res) => {
      res.resume();
      res.once('end', () => resolvePromise(res.statusCode ?? 0));
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error('probe timed out')));
    req.once('error', reject);
  });
}

/** How long startServer waits for the start-up warm-up once it listens. */
const WARM_UP_WAIT_MS = 5_000;

/**
 * Waits until /health/ready answers 200, i.e. the start-up warm-up is over
 * (src/start/warm-up.ts), so that what a test measures next (RSS, CPU,
 * latency) is not the warm-up's. A process that stays unready (its
 * database down, by design) is handed over anyway after WARM_UP_WAIT_MS.
 */
async function warmedUp(baseUrl: string): Promise<void> {
  const until = Date.now() + WARM_UP_WAIT_MS;
  while (Date.now() < until) {
    if ((await probe(`${baseUrl}/health/ready`).catch(() => 0)) === 200) {
      return;
    }
    await sleep(READY_POLL_MS);
  }
}

const sleep = (ms: number) =>
  new Promise<void>((resolvePromise) => setTimeout(resolvePromise, ms));

/**
 * Starts the built server (`node dist/service/main.js`) on a free port of
 * 127.0.0.1 and waits until GET /api/ai/generate-logo answers, then for
 * its warm-up (warmedUp).
 * `env` is applied on top of NODE_ENV=production, HOST=127.0.0.1,
 * LOG_LEVEL=warn and a free PORT (undefined unsets a variable).
 */
export async function startServer(
  env: Env,
  options: ProcessOptions = {},
): Promise<ServerProcess> {
  const port = await findFreePort();
  const running = launch({ PORT: String(port), ...env }, options);
  const { child, output, exited } = running;
  const baseUrl = `http://127.0.0.1:${port}`;
  let signal: NodeJS.Signals | null = null;
  void exited.then(
    (result) => (signal = result.signal),
    () => undefined,
  );

  const server: ServerProcess = {
    baseUrl,
    pid: child.pid ?? -1,
    get stdout() {
      return output.stdout;
    },
    get stderr() {
      return output.stderr;
    },
    get signal() {
      return signal;
    },
    async waitForExit() {
      return (await exited).code;
    },
    async kill() {
      if (!running.hasExited()) child.kill('SIGKILL');
      await exited.catch(() => undefined);
    },
    ask(message: unknown) {
      return new Promise((resolvePromise, reject) => {
        child.once('message', resolvePromise);
        child.send(message as object, (error) => {
          if (error) reject(error);
        });
      });
    },
    async stop() {
      if (!running.hasExited()) child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!running.hasExited()) child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      try {
        return (await exited).code;
      } finally {
        clearTimeout(timer);
      }
    },
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (running.hasExited()) {
      const { code, signal: endedBy } = await exited;
      throw new Error(
        `The server exited before it was ready (code ${code}, signal ${endedBy}). stderr:\n${output.stderr}`,
      );
    }
    try {
      await probe(`${baseUrl}/api/ai/generate-logo`);
      await warmedUp(baseUrl);
      return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() >= deadline) {
      await server.stop();
      throw new Error(
        `The server was not ready after ${READY_TIMEOUT_MS} ms. stderr:\n${output.stderr}`,
      );
    }
    await sleep(READY_POLL_MS);
  }
}

/**
 * Runs `node dist/service/main.js` with `env` (applied like startServer's) and
 * resolves when it exits. A process still running after 10 s is killed and
 * the promise rejects: these runs are meant to stop on their own.
 */
export async function runToExit(
  env: Env,
  options: ProcessOptions = {},
): Promise<ExitResult> {
  const port = await findFreePort();
  const running = launch({ PORT: String(port), ...env }, options);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    running.child.kill('SIGKILL');
  }, RUN_TO_EXIT_TIMEOUT_MS);
  try {
    const { code, signal } = await running.exited;
    if (timedOut) {
      throw new Error(
        `The server was still running after ${RUN_TO_EXIT_TIMEOUT_MS} ms and was killed. stdout:\n${running.output.stdout}\nstderr:\n${running.output.stderr}`,
      );
    }
    return { code, signal, ...running.output };
  } finally {
    clearTimeout(timer);
  }
}
