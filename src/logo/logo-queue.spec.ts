import { ServiceBusyError } from '../common/errors/retry-later.error';
import { LogoQueue } from './logo-queue';

const never = new AbortController().signal;

function queue(concurrency: number, queueLimit: number): LogoQueue {
  return new LogoQueue({ concurrency, queueLimit, busyRetryAfterSeconds: 7 });
}

/** Settles pending promise callbacks. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LogoQueue', () => {
  it('gives a slot at once while fewer than `concurrency` are in flight', async () => {
    const q = queue(2, 0);
    await q.admit().acquired(never);
    await q.admit().acquired(never);
    expect(q.inFlight).toBe(2);
    expect(q.waiting).toBe(0);
  });

  it('hands freed slots to waiting requests first in, first out', async () => {
    const q = queue(1, 3);
    const first = q.admit();
    const order: string[] = [];
    const waiting = ['a', 'b', 'c'].map((name) => {
      const ticket = q.admit();
      void ticket.acquired(never).then(() => {
        order.push(name);
        ticket.release();
      });
      return ticket;
    });
    expect(q.waiting).toBe(3);
    first.release();
    await tick();
    expect(order).toEqual(['a', 'b', 'c']);
    expect(q.inFlight).toBe(0);
    expect(waiting).toHaveLength(3);
  });

  it('refuses at once with ServiceBusyError (and its Retry-After) when the line is full', () => {
    const q = queue(1, 1);
    q.admit();
    q.admit();
    let refusal: unknown;
    try {
      q.admit();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ServiceBusyError);
    expect((refusal as ServiceBusyError).status).toBe(503);
    expect((refusal as ServiceBusyError).retryAfterSeconds).toBe(7);
    expect((refusal as ServiceBusyError).message).toBe(
      'Logo generator is busy, retry later',
    );
  });

  it('takes a request out of the line when its signal aborts, with the reason', async () => {
    const q = queue(1, 1);
    q.admit();
    const leaving = q.admit();
    const controller = new AbortController();
    const reason = new Error('client left');
    const acquired = leaving.acquired(controller.signal);
    controller.abort(reason);
    await expect(acquired).rejects.toBe(reason);
    expect(q.waiting).toBe(0);
    expect(() => q.admit()).not.toThrow();
  });

  it('frees the slot of a request whose signal aborted before it asked', async () => {
    const q = queue(1, 0);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(q.admit().acquired(controller.signal)).rejects.toThrow('gone');
    expect(q.inFlight).toBe(0);
  });

  it('releases a ticket only once', () => {
    const q = queue(2, 0);
    const ticket = q.admit();
    q.admit();
    ticket.release();
    ticket.release();
    expect(q.inFlight).toBe(1);
  });
});
