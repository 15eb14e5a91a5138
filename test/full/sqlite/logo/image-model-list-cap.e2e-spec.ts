import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LIST_TIMEOUT_MS,
  MAX_MODEL_LIST_BYTES,
} from '../../../../src/logo/providers/image-model-lifecycle';
import { megabytes, peakResidentBytes } from '../../../support/process-memory';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';

/**
 * GET /v1/models (IMAGE_PROVIDER=openai) is read with a size cap: a
 * provider answering an endless list costs the server at most the cap,
 * never the answer's size. Measured inside the server process (its
 * /proc/<pid>/status VmHWM), on the built server.
 */
const LIST_BYTES = 400 * 1024 * 1024;

/** A provider whose model list is LIST_BYTES of valid JSON, sent as fast as read. */
async function startHugeModelList(): Promise<{
  server: Server;
  baseUrl: string;
  sent: () => number;
}> {
  let sent = 0;
  const entry = Buffer.from(
    `${JSON.stringify({ id: 'padding-model', object: 'model', created: 1, owned_by: 'system' })},`.repeat(
      4096,
    ),
  );
  const server = createServer((req, res) => {
    if (req.url !== '/v1/models') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"object":"list","data":[');
    const pump = () => {
      while (sent < LIST_BYTES && !res.destroyed) {
        sent += entry.length;
        if (!res.write(entry)) return void res.once('drain', pump);
      }
      if (!res.destroyed)
        res.end('{"id":"gpt-image-2.5-sunburst","object":"model"}]}');
    };
    res.on('error', () => undefined);
    pump();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}`, sent: () => sent };
}

describe('The image model list is read with a size cap', () => {
  let provider: Awaited<ReturnType<typeof startHugeModelList>>;
  let app: ServerProcess | undefined;

  beforeAll(async () => {
    provider = await startHugeModelList();
  });
  afterAll(async () => {
    await app?.stop();
    provider?.server.closeAllConnections();
    provider?.server.close();
  });

  it(`a ${LIST_BYTES / 1024 / 1024} MB list is dropped past ${MAX_MODEL_LIST_BYTES} bytes with one warning; the server's peak RSS stays under 400 MB and the model stays unknown`, async () => {
    app = await startServer({
      IMAGE_API_KEY: 'sk-model-list-test-key',
      IMAGE_API_URL: `${provider.baseUrl}/v1/images/generations`,
      IMAGE_PROVIDER: 'openai',
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
    });
    const started = app;
    const deadline = Date.now() + 20_000;
    const warned = () =>
      /image model list was larger than \d+ bytes/.test(
        started.stdout + started.stderr,
      );
    while (!warned() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const peak = peakResidentBytes(started.pid);
    console.log(
      `model list: ${megabytes(provider.sent())} sent; server VmHWM ${megabytes(peak)}`,
    );
    expect(warned()).toBe(true);
    expect(peak).toBeLessThan(400 * 1024 * 1024);

    const models = (await (
      await fetch(`${started.baseUrl}/api/ai/models`)
    ).json()) as { models: Array<{ id: string; status: string }> };
    expect(models.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'gpt-image-2.5-sunburst',
          status: 'unknown',
        }),
      ]),
    );
  });
});

/** A provider whose model list arrives one byte every 200 ms, never ending. */
async function startTricklingModelList(): Promise<{
  server: Server;
  baseUrl: string;
}> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.on('error', () => undefined);
    const timer = setInterval(() => res.write(' '), 200);
    res.on('close', () => clearInterval(timer));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

describe('The image model list is read with a deadline', () => {
  let provider: Awaited<ReturnType<typeof startTricklingModelList>>;
  let app: ServerProcess | undefined;

  beforeAll(async () => {
    provider = await startTricklingModelList();
  });
  afterAll(async () => {
    await app?.stop();
    provider?.server.closeAllConnections();
    provider?.server.close();
  });

  it(`start-up does not wait for a list that trickles; past ${LIST_TIMEOUT_MS} ms it is dropped with one warning and the model stays unknown`, async () => {
    app = await startServer({
      IMAGE_API_KEY: 'sk-model-list-test-key',
      IMAGE_API_URL: `${provider.baseUrl}/v1/images/generations`,
      IMAGE_PROVIDER: 'openai',
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
    });
    const started = app;
    const warned = () =>
      /image model list did not answer/.test(started.stdout + started.stderr);
    // Ready while the list is still arriving.
    expect(warned()).toBe(false);
    const deadline = Date.now() + LIST_TIMEOUT_MS + 10_000;
    while (!warned() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(warned()).toBe(true);
    const models = (await (
      await fetch(`${started.baseUrl}/api/ai/models`)
    ).json()) as { models: Array<{ id: string; status: string }> };
    expect(models.models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 'gpt-image-2.5-sunburst',
          status: 'unknown',
        }),
      ]),
    );
  }, 60_000);
});
