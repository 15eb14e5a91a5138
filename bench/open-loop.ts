import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * Open-loop GET by id: request n is due at start + n / rate and is sent
 * then, whatever happened to the ones before it, over as many keep-alive
 * connections as that takes. Each latency is counted from the moment the
 * request was due, not from when it left: a server that stalls for 400 ms
 * shows 400 ms for every request that fell due meanwhile (no coordinated
 * omission). `open-loop.ts <baseUrl> <idsFile> <rate> <seconds>`; prints
 * one JSON line: the due time (ms after start) and latency of every answer.
 */

const [baseUrl, idsFile, rateText, secondsText] = process.argv.slice(2);
const ids = JSON.parse(readFileSync(idsFile, 'utf8')) as string[];
const rate = Number(rateText);
const total = Math.round(rate * Number(secondsText));
const interval = 1000 / rate;
const agent = new Agent({ keepAlive: true, maxSockets: 512 });

const dueAt = new Float64Array(total);
const latency = new Float64Array(total).fill(NaN);
let errors = 0;
let answered = 0;
let next = 0;
const started = performance.now();

function send(n: number): void {
  const id = ids[n % ids.length];
  const req = request(
    `${baseUrl}/api/projects/${id}`,
    { agent, timeout: 30_000 },
    (res) => {
      res.resume();
      res.once('end', () => {
        if (res.statusCode === 200) {
          latency[n] = performance.now() - started - dueAt[n];
        } else {
          errors += 1;
        }
        done();
      });
    },
  );
  req.once('timeout', () => req.destroy(new Error('timeout')));
  req.once('error', () => {
    errors += 1;
    done();
  });
  req.end();
}

function done(): void {
  answered += 1;
  if (answered < total) return;
  agent.destroy();
  process.stdout.write(
    `${JSON.stringify({ dueMs: Array.from(dueAt), latencyMs: Array.from(latency), errors })}\n`,
  );
}

function tick(): void {
  const now = performance.now() - started;
  while (next < total && next * interval <= now) {
    dueAt[next] = next * interval;
    send(next);
    next += 1;
  }
  if (next < total) setTimeout(tick, 0);
}

tick();
