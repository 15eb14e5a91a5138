/**
 * The caller disconnected before its answer was ready. Work done for it is
 * abandoned (queued work leaves the queue, upstream calls are aborted); no
 * response can reach it, so the status (nginx's 499) is only for the record.
 */
export class ClientClosedRequestError extends Error {
  constructor() {
    super('The client closed the request');
    this.name = 'ClientClosedRequestError';
  }
}
