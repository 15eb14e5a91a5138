import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The bare node:http reference of `npm run bench:events`: the least any
 * Node server pays to hold text/event-stream answers and write an event to
 * each of them. What it shares with the service's streams, so that the
 * difference is the service's own: the same status, headers and first
 * `retry:` line, a keep-alive comment every 15 s, a chunked node:http
 * response per stream with its buffer bounded the same way, and an event
 * caused by an HTTP request on the same event loop. What it leaves out:
 * the database, the change feed, limits, scopes and presenting.
 *
 * - GET /events: a stream, held until the client goes.
 * - POST /publish: the body is an event as the service sends it (the bench
 *   captures one); its `id` and `at` are replaced (the next id, now), it is
 *   framed once and written to every open stream, and the answer is 200.
 * - GET /stats: `{"streamsOpen":N,"fanoutMs":[...]}`, the time from each
 *   POST's body to the last stream written, since the previous /stats.
 *
 * Prints `{"port":N}` once it listens.
 */

const RETRY = 'retry: 2000\n\n';
const KEEP_ALIVE = ': keep-alive\n\n';
const HEARTBEAT_MS = 15_000;
/** The service's default EVENTS_BUFFER_LIMIT_BYTES. */
const BUFFER_LIMIT_BYTES = 262_144;
const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
};

const streams = new Set<ServerResponse>();
let nextId = 0;
let fanoutMs: number[] = [];

/** Writes to every stream; a client that stopped reading is cut. */
function writeAll(text: string): void {
  for (const stream of streams) {
    stream.write(text);
    if (stream.writableLength > BUFFER_LIMIT_BYTES) stream.destroy();
  }
}

function publish(body: string): void {
  const started = performance.now();
  const event = JSON.parse(body) as Record<string, unknown>;
  event.id = String(++nextId);
  event.at = new Date().toISOString();
  writeAll(
    `id: ${nextId}\nevent: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`,
  );
  fanoutMs.push(performance.now() - started);
}

setInterval(() => writeAll(KEEP_ALIVE), HEARTBEAT_MS).unref();

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    req.resume();
    res.writeHead(200, HEADERS);
    res.write(RETRY);
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  if (req.method === 'POST' && req.url === '/publish') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      publish(body);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    return;
  }
  req.resume();
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ streamsOpen: streams.size, fanoutMs }));
    fanoutMs = [];
    return;
  }
  res.writeHead(404);
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
