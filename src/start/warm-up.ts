import { Injectable, Logger } from '@nestjs/common';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { WARM_UP_HEADER, WARM_UP_TOKEN } from './warm-up-request';

/**
 * Requests the service sends itself between listening and reporting ready.
 * Without them the first seconds of real traffic paid for what a fresh
 * process does once: V8 compiling and optimising the request path, lazily
 * required modules, Nest's and Express's caches filled on first use. Under
 * a steady 1,500 req/s that showed as stalls of up to 434 ms within ~8 s
 * of readiness. Only reads: no row, log line or metric is left behind
 * (warm-up-request.ts).
 */

/** Rounds of the read paths below; each round is a handful of requests. */
export const WARM_UP_ROUNDS = 30;
/** Requests in flight at once, so the connection handling warms too. */
const IN_FLIGHT = 4;
/** A warm-up that cannot finish must not keep the pod unready. */
const WARM_UP_BUDGET_MS = 2_000;
/** Well formed, never issued (ids are UUIDv7): the not-found path. */
const MISSING_ID = '00000000-0000-7000-8000-000000000000';

export interface WarmUpSummary {
  requests: number;
  /** Answers by status; a 401 under AUTH_MODE=oidc still warms the path. */
  statuses: Record<number, number>;
  elapsedMs: number;
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
    const get = async (path: string) => {
      const answer = await getText(agent, new URL(path, baseUrl));
      requests += 1;
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      return answer;
    };
    try {
      // A project to read, when the database holds one.
      const page = await get('/api/projects?limit=1');
      const found = firstProject(page.body);
      const paths = [
        ...(found
          ? [
              `/api/projects/${found.id}`,
              `/api/projects?userId=${encodeURIComponent(found.userId)}`,
            ]
          : []),
        `/api/projects/${MISSING_ID}`,
        '/api/projects?limit=20',
        '/health/live',
      ];
      const deadline = started + WARM_UP_BUDGET_MS;
      for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
        if (performance.now() > deadline) break;
        for (let i = 0; i < paths.length; i += IN_FLIGHT) {
          await Promise.all(paths.slice(i, i + IN_FLIGHT).map(get));
        }
      }
    } catch {
      // A failed warm-up costs speed, never readiness.
    } finally {
      agent.destroy();
      this.state = 'done';
    }
    const summary = {
      requests,
      statuses,
      elapsedMs: Math.round(performance.now() - started),
    };
    this.logger.debug(`Warm-up finished: ${JSON.stringify(summary)}`);
    return summary;
  }
}

function getText(
  agent: Agent,
  url: URL,
): Promise<{ status: number; body: string }> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      url,
      { agent, headers: { [WARM_UP_HEADER]: WARM_UP_TOKEN } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.once('end', () =>
          resolvePromise({ status: res.statusCode ?? 0, body }),
        );
        res.once('error', reject);
      },
    );
    req.setTimeout(WARM_UP_BUDGET_MS, () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
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
