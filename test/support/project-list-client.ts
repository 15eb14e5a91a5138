import { get, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { ProjectListScanner } from './project-list-scanner';

/** A project as GET /api/projects lists it (only what the checks read). */
export interface ListedProject {
  id: string;
  name: string;
  userId: string;
  updatedAt: string;
  sections: unknown[];
  agents: unknown[];
  tasks: unknown[];
  _count: { tasks: number; assets: number };
}

export interface StreamedList {
  status: number;
  /** Whether the body arrived whole (its outer object closed). */
  complete: boolean;
  /** The connection ended with an error (the server cut it off). */
  aborted: boolean;
  bytes: number;
  /** How many projects the body held. */
  count: number;
}

/**
 * Opens GET `url` and returns the response, paused: nothing more is read
 * from the socket until the caller reads (backpressure reaches the server).
 */
export async function openList(
  url: string,
  headers: Record<string, string> = {},
): Promise<IncomingMessage> {
  const request = get(url, { agent: false, headers });
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.pause();
  response.setEncoding('utf8');
  return response;
}

/**
 * Reads a list response to its end, handing each project to `onProject` as
 * it completes (parsed only then); never holds the whole body.
 */
export async function readList(
  response: IncomingMessage,
  onProject?: (project: ListedProject, text: string) => void,
  slowClient?: { pauseAtBytes: number; pauseMs: number },
): Promise<StreamedList> {
  const scanner = new ProjectListScanner();
  let bytes = 0;
  let count = 0;
  let paused = false;
  const aborted = await new Promise<boolean>((resolve) => {
    response.on('data', (piece: string) => {
      bytes += Buffer.byteLength(piece);
      if (slowClient && !paused && bytes >= slowClient.pauseAtBytes) {
        paused = true;
        response.pause();
        setTimeout(() => response.resume(), slowClient.pauseMs);
      }
      for (const text of scanner.push(piece)) {
        count += 1;
        onProject?.(JSON.parse(text) as ListedProject, text);
      }
    });
    response.once('end', () => resolve(false));
    response.once('error', () => resolve(true));
    response.once('aborted', () => resolve(true));
    response.resume();
  });
  return {
    status: response.statusCode ?? 0,
    complete: scanner.complete,
    aborted,
    bytes,
    count,
  };
}

/** Reads until `limit` bytes arrived, then drops the connection. */
export async function dropListAfter(
  response: IncomingMessage,
  limit: number,
): Promise<number> {
  let bytes = 0;
  await new Promise<void>((resolve) => {
    response.on('data', (piece: string) => {
      bytes += Buffer.byteLength(piece);
      if (bytes >= limit) {
        response.destroy();
        resolve();
      }
    });
    response.once('end', () => resolve());
    response.resume();
  });
  return bytes;
}

/** Checks list order: updatedAt descending, ties by id descending. */
export function assertListOrder(
  previous: ListedProject | undefined,
  next: ListedProject,
): void {
  if (!previous) return;
  const ordered =
    previous.updatedAt > next.updatedAt ||
    (previous.updatedAt === next.updatedAt && previous.id > next.id);
  if (!ordered) {
    throw new Error(`${next.id} is listed after ${previous.id} out of order`);
  }
}
