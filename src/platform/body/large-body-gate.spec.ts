import { ServiceBusyError } from '../../failures/retry-later.error';
import { LARGE_BODY_BUSY_MESSAGE, LargeBodyGate } from './large-body-gate';

const stays = () => undefined;
const client = (n: number) => ({
  identity: `203.0.113.${n}`,
  address: `203.0.113.${n}`,
});

describe('LargeBodyGate', () => {
  // Waiters left in line at the end of a test never reach their deadline.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets one large body be read at a time with one permit and hands the permit to the next in line', async () => {
    const gate = new LargeBodyGate({ permits: 1, queueLimit: 4 });
    const first = await gate.enter(client(1), stays);
    let secondIn = false;
    const second = gate.enter(client(2), stays).then((release) => {
      secondIn = true;
      return release;
    });
    await Promise.resolve();
    expect([gate.inUse, gate.waiting, secondIn]).toEqual([1, 1, false]);
    first();
    (await second)();
    expect([gate.inUse, gate.waiting, secondIn]).toEqual([0, 0, true]);
  });

  it('refuses one more than its line holds at once, with 503 and Retry-After: 1', async () => {
    const gate = new LargeBodyGate({ permits: 1, queueLimit: 2 });
    await gate.enter(client(1), stays);
    void gate.enter(client(2), stays).catch(() => 0);
    void gate.enter(client(3), stays).catch(() => 0);
    const refused = await gate
      .enter(client(4), stays)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceBusyError);
    expect(refused).toMatchObject({
      status: 503,
      message: LARGE_BODY_BUSY_MESSAGE,
      retryAfterSeconds: 1,
    });
  });

  it('gives up the place of a client that leaves while waiting', async () => {
    const gate = new LargeBodyGate({ permits: 1, queueLimit: 2 });
    const release = await gate.enter(client(1), stays);
    let leave: () => void = () => undefined;
    const waiting = gate.enter(client(2), (onGone) => (leave = onGone));
    expect(gate.waiting).toBe(1);
    leave();
    await expect(waiting).rejects.toThrow('The client left');
    expect(gate.waiting).toBe(0);
    release();
    expect(gate.inUse).toBe(0);
  });

  it('counts a permit released twice once', async () => {
    const gate = new LargeBodyGate({ permits: 1, queueLimit: 2 });
    const release = await gate.enter(client(1), stays);
    release();
    release();
    expect(gate.inUse).toBe(0);
    await gate.enter(client(1), stays);
    expect(gate.inUse).toBe(1);
  });

  it('gives one client one permit and two places in line however many sockets it opens; another client still gets a permit at once', async () => {
    const refusals: string[] = [];
    const gate = new LargeBodyGate({}, (reason) => refusals.push(reason));
    const flood = Array.from({ length: 65 }, () =>
      gate.enter(client(1), stays).catch((error: unknown) => error),
    );
    await Promise.resolve();
    expect([gate.inUse, gate.waiting]).toEqual([1, 2]);
    expect(refusals).toEqual(Array(62).fill('share'));
    const other = await gate.enter(client(2), stays);
    expect(gate.inUse).toBe(2);
    other();
    expect(flood).toHaveLength(65);
  });

  it('bounds an address that mints identities to half the permits and a quarter of the line', async () => {
    const gate = new LargeBodyGate({});
    const minted = (n: number) => ({
      identity: `user:${n}`,
      address: '198.51.100.7',
    });
    for (let n = 0; n < 40; n++) {
      void gate.enter(minted(n), stays).catch(() => undefined);
    }
    await Promise.resolve();
    expect([gate.inUse, gate.waiting]).toEqual([2, 16]);
    await gate.enter(client(9), stays);
    expect(gate.inUse).toBe(3);
  });

  describe('with a short wait', () => {
    it('refuses a waiter with 503 once its own wait has passed, and counts it', async () => {
      const refusals: string[] = [];
      const gate = new LargeBodyGate(
        { permits: 1, queueLimit: 4, waitMs: 3000 },
        (reason) => refusals.push(reason),
      );
      await gate.enter(client(1), stays);
      const waiting = gate
        .enter(client(2), stays)
        .catch((error: unknown) => error);
      jest.advanceTimersByTime(2999);
      expect(gate.waiting).toBe(1);
      jest.advanceTimersByTime(1);
      expect(await waiting).toMatchObject({
        status: 503,
        retryAfterSeconds: 1,
      });
      expect([gate.waiting, refusals]).toEqual([0, ['deadline']]);
    });
  });
});
