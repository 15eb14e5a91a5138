import { Injectable, Logger } from '@nestjs/common';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { saveCompiledCode } from './code-cache';
import { WARM_UP_HEADER, WARM_UP_TOKEN } from './warm-up-request';

/**
 * Requests the service sends itself between listening and reporting ready.
 * Without them the first seconds of real traffic paid for what a fresh
 * process does once: V8 compiling and optimising the request path, lazily
 * required modules, Nest's and Express's caches filled on first use. Under
 * a steady 1,500 req/s that showed as stalls of up to 434 ms within ~8 s
 * of readiness. They go through every route family a pod serves from its
 * first second (one project, lists, tasks, a PATCH, a create, a live
 * stream), and through the request line and metric code (into sinks nobody
 * reads); they leave no row, log line or metric behind
 * (warm-up-request.ts): the writes are ones the service refuses before
 * writing (a create that fails validation, a PATCH whose If-Match names
 * no version).
 */

/** At most this many rounds of the calls below. */
export const WARM_UP_ROUNDS = 60;
/**
 * No round starts after this long: readiness comes at most one round
 * later, whatever the machine's speed (a start-up on a busy node).
 */
const WARM_UP_TARGET_MS = 250;
/** Requests in flight at once, so the connection handling warms too. */
const IN_FLIGHT = 4;
/** A warm-up that cannot finish must not keep the pod unready. */
const WARM_UP_BUDGET_MS = 2_000;
/** Well formed, never issued (ids are UUIDv7): the not-found path. */
const MISSING_ID = '00000000-0000-7000-8000-000000000000';

export interface WarmUpSummary {
  requests: number;
  rounds: number;
  /** Answers by status; a 401 under AUTH_MODE=oidc still warms the path. */
  statuses: Record<number, number>;
  elapsedMs: number;
}

/** One warm-up request; `stream`: resolve on the headers and hang up. */
interface WarmUpCall {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
  ifMatch?: string;
  stream?: boolean;
}

@Injectable()
export class WarmUp {
  /** Until main.ts asks for it (an app built in a test), ready at once. */
  private state: 'not-needed' | 'pending' | 'done' = 'not-needed';
  private readonly logger = new Logger('WarmUp');

  /** False from expect() until run() has finished (readiness waits). */
  get finished(): boolean {
    return this.state !== 'pending';
  }

  /** Readiness now waits for run(); called before the server listens. */
  expect(): void {
    this.state = 'pending';
  }

  /** Sends the warm-up requests to the listening server at `baseUrl`. */
  async run(baseUrl: string): Promise<WarmUpSummary> {
    const started = performance.now();
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    const statuses: Record<number, number> = {};
    let requests = 0;
    let rounds = 0;
    const send = async (call: WarmUpCall) => {
      const answer = await sendCall(agent, new URL(call.path, baseUrl), call);
      requests += 1;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      return answer;
    };
    try {
      // A project to read, when the database holds one.
      const page = await send({ method: 'GET', path: '/api/projects?limit=1' });
      const calls = warmUpCalls(firstProject(page.body));
      const target = started + WARM_UP_TARGET_MS;
      const deadline = started + WARM_UP_BUDGET_MS;
      while (rounds < WARM_UP_ROUNDS && performance.now() < target) {
        for (let i = 0; i < calls.length; i += IN_FLIGHT) {
          if (performance.now() > deadline) throw new Error('out of time');
          await Promise.all(calls.slice(i, i + IN_FLIGHT).map(send));
        }
        rounds += 1;
      }
    } catch {
      // A failed warm-up costs speed, never readiness.
    } finally {
      agent.destroy();
      // Before readiness: the code the warm-up compiled, for the next start.
      saveCompiledCode();
      this.state = 'done';
    }
    const summary = {
      requests,
      rounds,
      statuses,
      elapsedMs: Math.round(performance.now() - started),
    };
    this.logger.debug(`Warm-up finished: ${JSON.stringify(summary)}`);
    return summary;
  }
}

/** One round: every route family, each as the first real requests send it. */
function warmUpCalls(found?: { id: string; userId: string }): WarmUpCall[] {
  const get = (path: string): WarmUpCall => ({ method: 'GET', path });
  const perProject: WarmUpCall[] = found
    ? [
        get(`/api/projects/${found.id}`),
        get(`/api/projects?userId=${encodeURIComponent(found.userId)}`),
        get(`/api/projects/${found.id}/tasks`),
        {
          method: 'GET',
          path: `/api/projects/${found.id}/events`,
          stream: true,
        },
        // Refused where it would write: no version is 0 (412).
        {
          method: 'PATCH',
          path: `/api/projects/${found.id}`,
          body: '{"name":"warm-up"}',
          ifMatch: '"0"',
        },
      ]
    : [];
  return [
    ...perProject,
    get(`/api/projects/${MISSING_ID}`),
    get('/api/projects?limit=20'),
    // Refused before any write: a create that fails validation.
    { method: 'POST', path: '/api/projects', body: '{"name":""}' },
    get('/health/live'),
  ];
}

function sendCall(
  agent: Agent,
  url: URL,
  call: WarmUpCall,
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = {
      [WARM_UP_HEADER]: WARM_UP_TOKEN,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.ifMatch !== undefined) headers['if-match'] = call.ifMatch;
    const req = request(url, { agent, method: call.method, headers }, (res) => {
      if (call.stream && res.statusCode === 200) {
        // A live stream never ends by itself: its opening is the path.
        resolvePromise({ status: 200, body: '' });
        req.destroy();
        return;
      }
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.once('end', () =>
        resolvePromise({ status: res.statusCode ?? 0, body }),
      );
      res.once('error', reject);
    });
    req.setTimeout(WARM_UP_BUDGET_MS, () => req.destroy(new Error('timeout')));
    req.once('error', (error) => {
      if (!call.stream) reject(error);
    });
    req.end(call.body);
  });
}

function firstProject(
  body: string,
): { id: string; userId: string } | undefined {
  try {
    const parsed = JSON.parse(body) as {
      projects?: { id?: unknown; userId?: unknown }[];
    };
    const project = parsed.projects?.[0];
    return typeof project?.id === 'string' && typeof project.userId === 'string'
      ? { id: project.id, userId: project.userId }
      : undefined;
  } catch {
    return undefined;
  }
}
