import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { HttpClient } from '../../support/http-client';

/**
 * A server in a process of its own that closes idle keep-alive connections
 * after 2 s (and Node's grace of 1 s) and prints its port.
 */
const SERVER_SOURCE = `
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('ok'));
});
server.keepAliveTimeout = 2000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/** Holds this process's event loop, as a long garbage collection does. */
function holdLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('HttpClient (the reliability drivers’ client)', () => {
  let server: ChildProcess;
  let baseUrl: string;

  beforeAll(async () => {
    server = spawn(process.execPath, ['-e', SERVER_SOURCE], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [port] = (await once(server.stdout!, 'data')) as [Buffer];
    baseUrl = `http://127.0.0.1:${port.toString().trim()}`;
  });

  afterAll(async () => {
    server.kill();
    await once(server, 'exit');
  });

  it('sends a request again on a new connection when its kept-alive one was closed by the server while this process held its loop', async () => {
    const client = new HttpClient(baseUrl);
    try {
      expect(
        (await client.send({ method: 'POST', path: '/', body: 'a' })).status,
      ).toBe(200);
      // Idle for 1 s (the agent keeps the connection for the 2 s the
      // server announces), then held past the server's close at 3 s: no
      // turn of this loop in which the agent could see it close.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      holdLoop(2500);
      const again = await client.send({
        method: 'POST',
        path: '/',
        body: 'b',
      });
      expect(again).toMatchObject({ status: 200, text: 'ok' });
    } finally {
      client.close();
    }
  });
});
