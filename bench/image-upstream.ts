import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal OpenAI-compatible image API for the logo scenarios, run as its
 * own process on the load core: `image-upstream.ts <delayMs>`. It answers
 * every POST after `delayMs` with `{created, data:[{url}]}`, like
 * /v1/images/generations, and prints `{"port":N}` once it listens.
 *
 * (The service has a dev image API of its own; this one stays separate
 * so the upstream's CPU never lands on the server core.)
 */

const delayMs = Number(process.argv[2] ?? '0');
let served = 0;

const server = createServer((req, res) => {
  // The body is drained, not parsed: the service's request is not under test.
  req.resume();
  req.once('end', () => {
    const reply = () => {
      served += 1;
      const body = JSON.stringify({
        created: Math.floor(Date.now() / 1000),
        data: [{ url: `https://images.bench.test/logo-${served}.png` }],
      });
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    };
    if (delayMs > 0) setTimeout(reply, delayMs);
    else reply();
  });
});
// The service may open 1,000 connections at once during the burst.
server.keepAliveTimeout = 60_000;
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
