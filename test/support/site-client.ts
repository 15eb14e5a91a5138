import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { pollUntil } from './task-client';

/** A port free right now, for a listener whose address a test must know first. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** One answer of a site address: status, headers and bytes. */
export interface SiteAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GET (or HEAD) of a URL on the sites origin, with no credentials sent. */
export async function fetchSite(
  url: string,
  init: RequestInit = {},
): Promise<SiteAnswer> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return {
    status: response.status,
    headers: response.headers,
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

/** Polls `url` until its body satisfies `done`, for at most `withinMs`. */
export async function untilBody(
  url: string,
  done: (bytes: Buffer) => boolean,
  withinMs = 5000,
): Promise<{ answer: SiteAnswer; afterMs: number }> {
  const started = Date.now();
  const answer = await pollUntil(
    () => fetchSite(url),
    (a) => a.status === 200 && done(a.bytes),
    Math.ceil(withinMs / 100),
    100,
  );
  return { answer, afterMs: Date.now() - started };
}

/** Polls `url` until it answers `status`, every 100 ms for at most `withinMs`. */
export async function untilStatus(
  url: string,
  status: number,
  withinMs = 5000,
): Promise<{ answer: SiteAnswer; afterMs: number }> {
  const started = Date.now();
  const answer = await pollUntil(
    () => fetchSite(url),
    (a) => a.status === status,
    Math.ceil(withinMs / 100),
    100,
  );
  return { answer, afterMs: Date.now() - started };
}
