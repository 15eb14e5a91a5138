import type { Request } from 'express';

/**
 * Bodies over this many bytes (or of unknown length) are large: the JSON
 * body guard reads them one gate permit at a time, and a refusal closes the
 * connection rather than drain them. Below it a body costs a few
 * milliseconds and a few kilobytes, and is already in the socket's buffer.
 */
export const SMALL_BODY_MAX_BYTES = 64 * 1024;

/**
 * A request refused before its large body was read (unknown route, no
 * credentials, 413, a full body gate). Node keeps a connection alive by
 * reading and dropping the rest of such a body, up to BODY_LIMIT per
 * request: a flood of refused megabytes then costs the CPU that liveness
 * probes need. Closing the connection after the answer stops the reading;
 * small bodies, already in the socket's buffer, keep the connection.
 */
export function largeBodyStillComing(request: Request): boolean {
  if (request.complete) return false;
  const length = request.headers['content-length'];
  if (length === undefined)
    return request.headers['transfer-encoding'] !== undefined;
  return Number(length) > SMALL_BODY_MAX_BYTES;
}
