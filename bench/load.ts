import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type {
  BurstJob,
  BurstResult,
  FromLoad,
  Job,
  RequestPlan,
  TimedJob,
  TimedResult,
  ToLoad,
} from './load-protocol';
import { KEEP_LOGO_REQUEST } from './kept-logos';
import { seededUserId } from './seed-rows';
import { summarize } from './stats';

/**
 * The load generator: a child process pinned to the load core, driven by
 * the orchestrator over IPC (see load-protocol.ts). Timed scenarios use
 * autocannon's programmatic API; the burst uses plain node:http, because
 * autocannon keeps a fixed number of connections busy instead of firing a
 * fixed number of requests at once.
 */

const send = (message: FromLoad) => process.send?.(message);

let goSignal: (() => void) | undefined;
const waitForGo = () =>
  new Promise<void>((resolvePromise) => (goSignal = resolvePromise));

/**
 * Copied into every request plan: autocannon writes a Content-Length into
 * the headers object it is given, which would then go out with the burst's
 * own requests (a body of another length: 400s).
 */
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json' });

// The same logo request for both routes, so their prompts cost the same.
const LOGO_BODY = JSON.stringify({
  projectId: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21',
  ...KEEP_LOGO_REQUEST,
});
const KEEP_LOGO_BODY = JSON.stringify(KEEP_LOGO_REQUEST);

const idCache = new Map<string, string[]>();
function idsOf(file: string): string[] {
  let ids = idCache.get(file);
  if (!ids) {
    ids = JSON.parse(readFileSync(file, 'utf8')) as string[];
    idCache.set(file, ids);
  }
  return ids;
}

const pick = <T>(items: T[]): T =>
  items[Math.floor(Math.random() * items.length)];

/** One autocannon request whose random parts are drawn per request. */
function requestFor(plan: RequestPlan): autocannon.Request {
  let n = 0;
  switch (plan.kind) {
    case 'fixed-get':
      // No setupRequest: autocannon then reuses one prebuilt buffer, about
      // 12 µs of generator CPU per request instead of about 30.
      return { method: 'GET', path: plan.path };
    case 'download':
      return { method: 'GET', path: plan.path };
    case 'get-by-id': {
      const ids = idsOf(plan.idsFile);
      return {
        method: 'GET',
        ...(plan.authorization
          ? { headers: { authorization: plan.authorization } }
          : {}),
        setupRequest: (req) => ({ ...req, path: `/api/projects/${pick(ids)}` }),
      };
    }
    case 'patch': {
      const ids = idsOf(plan.idsFile);
      return {
        method: 'PATCH',
        headers: { ...JSON_HEADERS },
        setupRequest: (req) => ({
          ...req,
          path: `/api/projects/${pick(ids)}`,
          body: JSON.stringify({ name: `Patched ${(n += 1)}` }),
        }),
      };
    }
    case 'create':
      if (plan.keys === 'replay') {
        return {
          method: 'POST',
          path: '/api/projects',
          headers: { ...JSON_HEADERS, 'idempotency-key': 'bench-replay' },
          body: JSON.stringify({
            name: 'Bench replayed project',
            userId: 'bench-creator-replay',
          }),
        };
      }
      // Creators are not the seeded users, so list-by-userId keeps 20 each.
      return {
        method: 'POST',
        path: '/api/projects',
        headers: { ...JSON_HEADERS },
        setupRequest: (req) => {
          n += 1;
          return {
            ...req,
            ...(plan.keys === 'unique'
              ? {
                  headers: {
                    ...JSON_HEADERS,
                    'idempotency-key': `bench-${process.pid}-${n}`,
                  },
                }
              : {}),
            body: JSON.stringify({
              name: `Bench project ${n}`,
              description: 'Created by the benchmark',
              userId: `bench-creator-${n % plan.users}`,
            }),
          };
        },
      };
    case 'list-user':
      return {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: `/api/projects?userId=${seededUserId(Math.floor(Math.random() * plan.users))}`,
        }),
      };
    case 'list-all':
      return { method: 'GET', path: '/api/projects' };
    case 'logo':
      return {
        method: 'POST',
        path: '/api/ai/generate-logo',
        headers: { ...JSON_HEADERS },
        body: LOGO_BODY,
      };
    case 'keep-logo':
      return {
        method: 'POST',
        headers: { ...JSON_HEADERS },
        body: KEEP_LOGO_BODY,
        setupRequest: (req) => ({
          ...req,
          path: `/api/projects/${pick(plan.projectIds)}/logos`,
        }),
      };
    case 'mixed': {
      const get = requestFor({ kind: 'get-by-id', idsFile: plan.idsFile });
      const list = requestFor({ kind: 'list-user', users: plan.users });
      const create = requestFor({ kind: 'create', users: plan.users });
      return {
        setupRequest: (req, context) => {
          const draw = Math.random();
          const [chosen, method] =
            draw < 0.8
              ? [get, 'GET']
              : draw < 0.95
                ? [list, 'GET']
                : [create, 'POST'];
          const base = {
            ...req,
            method,
            path: chosen.path ?? req.path,
            headers: chosen.headers ?? {},
            body: undefined,
          } as autocannon.Request;
          const setup = chosen.setupRequest as
            | ((
                request: autocannon.Request,
                context: object,
              ) => autocannon.Request)
            | undefined;
          return setup ? setup(base, context) : base;
        },
      };
    }
  }
}

/**
 * One autocannon run; latencies are kept raw (autocannon rounds to 1 ms).
 * With more than one server, one autocannon per server, each with its share
 * of the connections and the rate, run together and summed.
 */
async function cannon(job: TimedJob, seconds: number): Promise<TimedResult> {
  const urls = [job.baseUrl, ...(job.moreBaseUrls ?? [])];
  const latencies: number[] = [];
  const parts = await Promise.all(
    urls.map((url) =>
      job.rate !== undefined
        ? paced(url, job.plan, job.rate / urls.length, seconds, latencies)
        : job.plan.kind === 'download'
          ? download(
              url,
              job.plan.path,
              Math.max(1, Math.round(job.connections / urls.length)),
              seconds,
              latencies,
            )
          : cannonOne(
              url,
              job,
              seconds,
              Math.max(1, Math.round(job.connections / urls.length)),
              latencies,
            ),
    ),
  );
  const sum = (pick: (part: (typeof parts)[number]) => number) =>
    parts.reduce((total, part) => total + pick(part), 0);
  const statusCodes: Record<string, number> = {};
  for (const part of parts) {
    for (const [code, count] of Object.entries(part.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  const secondsRun = Math.max(...parts.map((part) => part.seconds));
  const ok = sum((part) => part.ok);
  return {
    completed: sum((part) => part.completed),
    ok,
    non2xx: sum((part) => part.non2xx),
    socketErrors: sum((part) => part.socketErrors),
    timeouts: sum((part) => part.timeouts),
    seconds: secondsRun,
    perSecond: ok / secondsRun,
    statusCodes,
    ...summarize(latencies),
  };
}

type CannonPart = Omit<TimedResult, keyof ReturnType<typeof summarize>>;

function cannonOne(
  url: string,
  job: TimedJob,
  seconds: number,
  connections: number,
  latencies: number[],
): Promise<CannonPart> {
  return new Promise((resolvePromise, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        requests: [requestFor(job.plan)],
      },
      (error: unknown, result: autocannon.Result) => {
        if (error) {
          reject(
            error instanceof Error
              ? error
              : new Error(`autocannon failed: ${JSON.stringify(error)}`),
          );
          return;
        }
        const statusCodes: Record<string, number> = {};
        for (const [code, stat] of Object.entries(
          result.statusCodeStats ?? {},
        )) {
          statusCodes[code] = stat.count ?? 0;
        }
        const ok = result['2xx'];
        resolvePromise({
          completed: ok + result.non2xx,
          ok,
          non2xx: result.non2xx,
          socketErrors: result.errors,
          timeouts: result.timeouts,
          seconds: result.duration,
          perSecond: ok / result.duration,
          statusCodes,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

/**
 * A closed loop over node:http for answers of megabytes: `connections`
 * keep-alive connections, each sending its next request as soon as the
 * last byte of its previous answer arrived; the bytes are read and
 * dropped. autocannon parses in JavaScript and appends every body chunk
 * to a string: for a 1.5 MB answer that costs the load core many times
 * what it costs the server, and the generator would be what is measured.
 * Requests still in flight at the end are waited for and counted.
 */
function download(
  url: string,
  path: string,
  connections: number,
  seconds: number,
  latencies: number[],
): Promise<CannonPart> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(path, url);
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let socketErrors = 0;
  let timeouts = 0;
  const started = performance.now();
  const ends = started + seconds * 1000;
  const one = () =>
    new Promise<void>((resolvePromise) => {
      const sentAt = performance.now();
      let settled = false;
      // A cut answer can fail both the response and the request: once.
      const failed = () => {
        if (settled) return;
        settled = true;
        socketErrors += 1;
        resolvePromise();
      };
      const req = request(target, { agent, timeout: 30_000 }, (res) => {
        res.resume();
        res.once('end', () => {
          if (settled) return;
          settled = true;
          const status = res.statusCode ?? 0;
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          if (status >= 200 && status < 300) {
            ok += 1;
            latencies.push(performance.now() - sentAt);
          } else {
            non2xx += 1;
          }
          resolvePromise();
        });
        res.once('error', failed);
      });
      req.once('timeout', () => {
        timeouts += 1;
        req.destroy(new Error('timeout'));
      });
      req.once('error', failed);
      req.end();
    });
  const loop = async () => {
    while (performance.now() < ends) await one();
  };
  return Promise.all(Array.from({ length: connections }, loop)).then(() => {
    agent.destroy();
    const elapsed = (performance.now() - started) / 1000;
    return {
      completed: ok + non2xx,
      ok,
      non2xx,
      socketErrors,
      timeouts,
      seconds: elapsed,
      perSecond: ok / elapsed,
      statusCodes,
    };
  });
}

/**
 * An open-loop run at a fixed rate: request n is sent at start + n / rate,
 * whether or not earlier ones were answered, over as many keep-alive
 * connections as that needs. autocannon's overallRate is not that: it sends
 * each second's quota as fast as it can, then waits for the next second, so
 * half of every second is saturation. Latency is taken from the moment a
 * request is sent.
 */
function paced(
  url: string,
  plan: RequestPlan,
  rate: number,
  seconds: number,
  latencies: number[],
): Promise<CannonPart> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const template = requestFor(plan);
  const setup = template.setupRequest as
    | ((request: autocannon.Request, context: object) => autocannon.Request)
    | undefined;
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let non2xx = 0;
  let socketErrors = 0;
  let timeouts = 0;
  let pending = 0;
  const interval = 1000 / rate;
  const started = performance.now();
  const ends = started + seconds * 1000;
  let sent = 0;
  return new Promise((resolvePromise) => {
    const finish = () =>
      resolvePromise({
        completed: ok + non2xx,
        ok,
        non2xx,
        socketErrors,
        timeouts,
        seconds,
        perSecond: ok / seconds,
        statusCodes,
      });
    const answered = () => {
      pending -= 1;
      if (pending === 0 && sent * interval >= ends - started) {
        agent.destroy();
        finish();
      }
    };
    const fireOne = () => {
      const base: autocannon.Request = {
        method: template.method ?? 'GET',
        path: template.path ?? '/',
        headers: template.headers ?? {},
        body: template.body,
      };
      const one = setup ? setup(base, {}) : base;
      const body = one.body === undefined ? undefined : String(one.body);
      // autocannon writes a Content-Length into the headers object it is
      // given (the plan's shared one): drop it and count this body's bytes.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(one.headers ?? {})) {
        if (name.toLowerCase() !== 'content-length') {
          headers[name] = String(value);
        }
      }
      if (body !== undefined) {
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      pending += 1;
      const sentAt = performance.now();
      const req = request(
        new URL(one.path ?? '/', url),
        {
          method: one.method,
          agent,
          headers,
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            const status = res.statusCode ?? 0;
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            if (status >= 200 && status < 300) {
              ok += 1;
              latencies.push(performance.now() - sentAt);
            } else {
              non2xx += 1;
            }
            answered();
          });
        },
      );
      req.once('timeout', () => {
        timeouts += 1;
        req.destroy(new Error('timeout'));
      });
      req.once('error', () => {
        socketErrors += 1;
        answered();
      });
      req.end(body);
    };
    const tick = () => {
      const now = Math.min(performance.now(), ends);
      while (started + sent * interval <= now) {
        sent += 1;
        fireOne();
      }
      if (performance.now() < ends) setTimeout(tick, 1);
      else if (pending === 0) finish();
    };
    tick();
  });
}

async function runTimed(job: TimedJob): Promise<TimedResult> {
  await cannon(job, job.warmupS);
  send({ type: 'warmed' });
  await waitForGo();
  return cannon(job, job.durationS);
}

interface Fired {
  status: number;
  latencyMs: number;
}

/** `count` logo requests sent at once, each on its own new connection. */
async function fire(baseUrl: string, count: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL('/api/ai/generate-logo', baseUrl);
  const one = () =>
    new Promise<Fired>((resolvePromise) => {
      const sent = performance.now();
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            ...JSON_HEADERS,
            'content-length': String(Buffer.byteLength(LOGO_BODY)),
          },
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.once('end', () =>
            resolvePromise({
              status: res.statusCode ?? 0,
              latencyMs: performance.now() - sent,
            }),
          );
        },
      );
      req.once('timeout', () => req.destroy(new Error('timeout')));
      req.once('error', () =>
        resolvePromise({ status: 0, latencyMs: performance.now() - sent }),
      );
      req.end(LOGO_BODY);
    });
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: count }, one));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { answers, elapsedMs };
}

async function runBurst(job: BurstJob): Promise<BurstResult> {
  const warm = await fire(job.baseUrl, job.warmupRequests);
  send({ type: 'warmed' });
  await waitForGo();
  const { answers, elapsedMs } = await fire(job.baseUrl, job.requests);
  const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
  return {
    requests: job.requests,
    ok: ok.length,
    non2xx: answers.filter((a) => a.status !== 0).length - ok.length,
    socketErrors: answers.filter((a) => a.status === 0).length,
    elapsedMs,
    warmup: {
      elapsedMs: warm.elapsedMs,
      ok: warm.answers.filter((a) => a.status >= 200 && a.status < 300).length,
    },
    ...summarize(ok.map((a) => a.latencyMs)),
  };
}

async function runJob(job: Job): Promise<void> {
  try {
    const result =
      job.type === 'timed' ? await runTimed(job) : await runBurst(job);
    send({ type: 'result', result });
  } catch (error) {
    send({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

process.on('message', (message: ToLoad) => {
  if (message.type === 'job') void runJob(message.job);
  else if (message.type === 'go') goSignal?.();
});
// The orchestrator going away ends the load generator too.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
