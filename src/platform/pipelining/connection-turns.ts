import { AsyncResource } from 'node:async_hooks';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/**
 * One request at a time per connection.
 *
 * Node's HTTP server parses every request a read brings (up to 64 KB of
 * them) and emits each at once, queueing their answers in order; it stops
 * reading only once answers already *written* pile up. A client that
 * pipelines thousands of GETs and never reads therefore had every handler
 * run and every answer held in memory (2,000 GETs of a project with a 1 MB
 * description: +2 GB).
 *
 * Here a request waits, before any work is done for it, until the answer
 * before it on its connection has been handed to the kernel: a response's
 * 'close' follows its 'finish', which Node emits only once the socket has
 * written the answer's last byte. A client that stops reading thus stops
 * the next handler too (the socket's own backpressure), and at most one
 * answer per connection is ever held.
 *
 * While a request waits, the socket is not read: the client's further
 * requests stay in the kernel's buffers and TCP stops the client. So the
 * requests waiting are at most those of the one read Node had already
 * parsed; they run in order as the client reads its answers.
 */
export class ConnectionTurns {
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  private watchingResume = false;
  /** Reading was stopped here (and is to be started again here). */
  private holding = false;

  constructor(private readonly socket: Socket) {}

  admit(response: Response, next: NextFunction): void {
    if (!this.busy) {
      this.start(response, next);
      return;
    }
    // Bound to this request's async context, so tracing and logging see it
    // as its own when its turn comes from the previous request's 'close'.
    this.waiting.push(AsyncResource.bind(() => this.start(response, next)));
    this.holdReading();
  }

  private start(response: Response, next: NextFunction): void {
    this.busy = true;
    // 'close' comes after 'finish' (the last byte written), or when the
    // connection is lost.
    response.once('close', () => this.finished());
    next();
  }

  private finished(): void {
    this.busy = false;
    if (this.socket.destroyed) {
      // Node aborts the requests that were waiting; none of them runs.
      this.waiting.length = 0;
      return;
    }
    const nextTurn = this.waiting.shift();
    if (this.waiting.length === 0 && this.holding) {
      this.holding = false;
      this.socket.resume();
    }
    nextTurn?.();
  }

  /**
   * Stops reading the socket while requests wait. Node resumes a socket
   * itself after each answer (to drain the finished request's body) and
   * when its own write backpressure ends, on a later tick; the 'resume'
   * listener pauses it again at once while anything waits.
   */
  private holdReading(): void {
    if (!this.watchingResume) {
      this.watchingResume = true;
      this.socket.on('resume', () => {
        if (this.waiting.length > 0) this.socket.pause();
      });
    }
    this.holding = true;
    this.socket.pause();
  }
}

/** The Express layer that gives each connection its turns. */
export function pipeliningMiddleware() {
  const connections = new WeakMap<Socket, ConnectionTurns>();
  return function pipelining(
    request: Request,
    response: Response,
    next: NextFunction,
  ): void {
    const socket = request.socket;
    let turns = connections.get(socket);
    if (!turns) {
      turns = new ConnectionTurns(socket);
      connections.set(socket, turns);
    }
    turns.admit(response, next);
  };
}
