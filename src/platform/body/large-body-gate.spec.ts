import { ServiceBusyError } from '../../failures/retry-later.error';
import { LARGE_BODY_BUSY_MESSAGE, LargeBodyGate } from './large-body-gate';

const stays = () => undefined;

describe('LargeBodyGate', () => {
  it('lets one large body be read at a time and hands the permit to the next in line', async () => {
    const gate = new LargeBodyGate(1, 4);
    const first = await gate.enter(stays);
    let secondIn = false;
    const second = gate.enter(stays).then((release) => {
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
    const gate = new LargeBodyGate(1, 2);
    await gate.enter(stays);
    void gate.enter(stays);
    void gate.enter(stays);
    const refused = await gate.enter(stays).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceBusyError);
    expect(refused).toMatchObject({
      status: 503,
      message: LARGE_BODY_BUSY_MESSAGE,
      retryAfterSeconds: 1,
    });
  });

  it('gives up the place of a client that leaves while waiting', async () => {
    const gate = new LargeBodyGate(1, 2);
    const release = await gate.enter(stays);
    let leave: () => void = () => undefined;
    const waiting = gate.enter((onGone) => (leave = onGone));
    expect(gate.waiting).toBe(1);
    leave();
    await expect(waiting).rejects.toThrow('The client left');
    expect(gate.waiting).toBe(0);
    release();
    expect(gate.inUse).toBe(0);
  });

  it('counts a permit released twice once', async () => {
    const gate = new LargeBodyGate(1, 2);
    const release = await gate.enter(stays);
    release();
    release();
    expect(gate.inUse).toBe(0);
    await gate.enter(stays);
    expect(gate.inUse).toBe(1);
  });
});
