import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A minimal OpenAI-compatible image API for the logo scenarios, run as its
 * own process on the load core: `image-upstream.ts <delayMs> [pngFile]`.
 * It answers every POST after `delayMs` with `{created, data:[{url}]}`,
 * like /v1/images/generations, or, when the request asks
 * `response_format: "b64_json"` (a kept logo), with the PNG of `pngFile`
 * as `{created, data:[{b64_json}]}`. It prints `{"port":N}` once it listens.
 *
 * (The service has a dev image API of its own; this one stays separate
 * so the upstream's CPU never lands on the server core.)
 */

const delayMs = Number(process.argv[2] ?? '0');
const pngFile = process.argv[3];
// Encoded once: the megabytes of base64 are the upstream's, not the test's.
const base64Answer = pngFile
  ? Buffer.from(
      JSON.stringify({
        created: Math.floor(Date.now() / 1000),
        data: [{ b64_json: readFileSync(pngFile).toString('base64') }],
      }),
    )
  : undefined;
let served = 0;

function asksBase64(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { response_format?: unknown };
    return parsed.response_format === 'b64_json';
  } catch {
    return false;
  }
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    const base64 =
      base64Answer !== undefined &&
      asksBase64(Buffer.concat(chunks).toString('utf8'));
    const reply = () => {
      served += 1;
      const body = base64
        ? base64Answer
        : Buffer.from(
            JSON.stringify({
              created: Math.floor(Date.now() / 1000),
              data: [{ url: `https://images.bench.test/logo-${served}.png` }],
            }),
          );
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Length': body.length,
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
