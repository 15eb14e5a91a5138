import type { Response } from 'express';

/**
 * A response decided by a service: its status, headers and JSON text. Used
 * where the answer is more than a body — one stored for an Idempotency-Key
 * replay, or one that carries an ETag or is a 304.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** JSON text, sent as it is; undefined for a 304. */
  body?: string;
}

/** Applies the answer's status and headers; the body is returned to Nest. */
export function sendAnswer(
  response: Response,
  answer: Answer,
): string | undefined {
  response.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) {
    response.setHeader(name, value);
  }
  return answer.body;
}
