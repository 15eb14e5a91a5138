import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The bare node:http references, "the ceiling for any Node service": a
 * server that answers every request with the exact bytes of one file, held
 * in memory. `ref-http-server.ts <bodyFile> [contentType]`: a real
 * get-by-id response (JSON, the default), or a kept logo's PNG beside the
 * asset content route. Prints `{"port":N}`.
 */

const body = readFileSync(process.argv[2]);
const headers = {
  'Content-Type': process.argv[3] ?? 'application/json; charset=utf-8',
  'Content-Length': String(body.length),
};

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
