import {
  ServiceBusyError,
  TooManyRequestsError,
} from '../failures/retry-later.error';
import { LogoQueue } from './logo-queue';

const never = new AbortController().signal;

function queue(
  concurrency: number,
  queueLimit: number,
  clientLimit = 1000,
): LogoQueue {
  return new LogoQueue({
    concurrency,
    queueLimit,
    busyRetryAfterSeconds: 7,
    clientLimit,
  });
}

/** A client of its own for each request. */
let clients = 0;
const anyone = () => `client-${clients++}`;

/** Settles pending promise callbacks. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LogoQueue', () => {
  it('gives a slot at once while fewer than `concurrency` are in flight', async () => {
    const q = queue(2, 0);
    await q.admit(anyone()).acquired(never);
    await q.admit(anyone()).acquired(never);
    expect(q.inFlight).toBe(2);
    expect(q.waiting).toBe(0);
  });

  it('hands freed slots to waiting requests first in, first out', async () => {
    const q = queue(1, 3);
    const first = q.admit(anyone());
    const order: string[] = [];
    const waiting = ['a', 'b', 'c'].map((name) => {
      const ticket = q.admit(anyone());
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
    q.admit(anyone());
    q.admit(anyone());
    let refusal: unknown;
    try {
      q.admit(anyone());
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
    q.admit(anyone());
    const leaving = q.admit(anyone());
    const controller = new AbortController();
    const reason = new Error('client left');
    const acquired = leaving.acquired(controller.signal);
    controller.abort(reason);
    await expect(acquired).rejects.toBe(reason);
    expect(q.waiting).toBe(0);
    expect(() => q.admit(anyone())).not.toThrow();
  });

  it('frees the slot of a request whose signal aborted before it asked', async () => {
    const q = queue(1, 0);
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(q.admit(anyone()).acquired(controller.signal)).rejects.toThrow(
      'gone',
    );
    expect(q.inFlight).toBe(0);
  });

  it('releases a ticket only once', () => {
    const q = queue(2, 0);
    const ticket = q.admit(anyone());
    q.admit(anyone());
    ticket.release();
    ticket.release();
    expect(q.inFlight).toBe(1);
  });

  describe('per client', () => {
    it('refuses a client its clientLimit + 1st request, in flight or waiting, with 429 and Retry-After', () => {
      const q = queue(1, 100, 3);
      for (let i = 0; i < 3; i++) q.admit('greedy');
      let refusal: unknown;
      try {
        q.admit('greedy');
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(TooManyRequestsError);
      expect((refusal as TooManyRequestsError).retryAfterSeconds).toBe(7);
      expect(q.waiting).toBe(2);
    });

    it('lets another client in while one is at its limit, ahead of the first one’s further requests', async () => {
      const q = queue(1, 100, 2);
      const first = q.admit('greedy');
      q.admit('greedy');
      expect(() => q.admit('greedy')).toThrow(TooManyRequestsError);
      const other = q.admit('other');
      let otherGranted = false;
      void other.acquired(never).then(() => (otherGranted = true));
      first.release();
      // The greedy client's second request was first in line.
      await tick();
      expect(otherGranted).toBe(false);
      expect(q.waiting).toBe(1);
      expect(q.admit('greedy')).toBeDefined();
    });

    it('gives the client its place back when a request is released, whether it held a slot or waited', () => {
      const q = queue(1, 100, 1);
      const holding = q.admit('c');
      expect(() => q.admit('c')).toThrow(TooManyRequestsError);
      holding.release();
      const waitingElsewhere = q.admit('d');
      const waiting = q.admit('c');
      expect(q.waiting).toBe(1);
      waiting.release();
      expect(q.admit('c')).toBeDefined();
      waitingElsewhere.release();
    });
  });

  describe('fair shares', () => {
    it('never lets one client hold every call slot, even when its client limit would: its further requests wait and another client gets a slot at once', async () => {
      const q = queue(4, 10, 10);
      const mine = Array.from({ length: 6 }, () => q.admit('user:greedy'));
      expect([q.inFlight, q.waiting]).toEqual([2, 4]);
      const other = q.admit('user:other');
      await other.acquired(never);
      expect(q.inFlight).toBe(3);
      // A freed slot of the greedy client goes back to its own next one.
      mine[0].release();
      await tick();
      expect([q.inFlight, q.waiting]).toEqual([3, 3]);
    });

    it('bounds the tickets and slots of one address however many identities it shows, with 429', () => {
      const q = queue(8, 100, 4);
      const admitted: unknown[] = [];
      let refused: unknown;
      for (let n = 0; n < 20 && refused === undefined; n++) {
        try {
          admitted.push(q.admit(`user:minted-${n}`, '198.51.100.9'));
        } catch (error) {
          refused = error;
        }
      }
      expect(admitted).toHaveLength(16);
      expect(refused).toBeInstanceOf(TooManyRequestsError);
      expect(q.inFlight).toBe(4);
      q.admit('user:elsewhere', '203.0.113.1');
      expect(q.inFlight).toBe(5);
    });
  });
});
