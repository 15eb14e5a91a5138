import type { Request, Response } from 'express';
import { ClientClosedRequestError } from '../../failures/client-closed-request.error';

/**
 * An AbortSignal that aborts, with a ClientClosedRequestError as its reason,
 * when the caller disconnects before its response is finished, so work done
 * for it (a queue place, an upstream call) can be given up.
 *
 * The response's 'close' is the event to watch: a request's own 'close' fires
 * as soon as its body has been read, long before the caller goes away.
 */
export function clientAbortSignal(
  request: Request,
  response: Response,
): AbortSignal {
  const controller = new AbortController();
  const abort = () => controller.abort(new ClientClosedRequestError());
  if (response.closed || request.socket.destroyed) {
    abort();
  } else {
    response.once('close', () => {
      if (!response.writableFinished) abort();
    });
  }
  return controller.signal;
}
