import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Reference 1, "the ceiling for any Node service": a bare node:http server
 * that answers every request with the exact bytes of a real get-by-id
 * response. `ref-http-server.ts <bodyFile>`; prints `{"port":N}`.
 */

const body = readFileSync(process.argv[2]);
const headers = {
  'Content-Type': 'application/json; charset=utf-8',
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
