import { BoundedSlots } from './bounded-slots';

const refused = () => new Error('refused');

describe('BoundedSlots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives each key up to its limit at once, whatever other keys hold', async () => {
    const slots = new BoundedSlots(2, 1_000);
    await slots.take('a', refused);
    await slots.take('a', refused);
    await slots.take('b', refused);
    expect([slots.holding('a'), slots.holding('b')]).toEqual([2, 1]);
  });

  it('serves one more as soon as a holder of its key finishes, within the wait', async () => {
    const slots = new BoundedSlots(1, 1_000);
    const first = await slots.take('a', refused);
    const second = slots.take('a', refused);
    jest.advanceTimersByTime(500);
    first();
    await expect(second).resolves.toEqual(expect.any(Function));
    expect(slots.holding('a')).toBe(1);
    (await second)();
    expect(slots.holding('a')).toBe(0);
  });

  it('refuses one more when no slot of its key came within the wait', async () => {
    const slots = new BoundedSlots(1, 1_000);
    await slots.take('a', refused);
    const second = slots.take('a', refused);
    jest.advanceTimersByTime(1_000);
    await expect(second).rejects.toThrow('refused');
    expect(slots.holding('a')).toBe(1);
  });

  it('refuses at once when its line is full, or when it may not wait', async () => {
    const waiting = new BoundedSlots(1, 1_000, 1);
    await waiting.take('a', refused);
    void waiting.take('a', refused).catch(() => undefined);
    await expect(waiting.take('a', refused)).rejects.toThrow('refused');
    const noWait = new BoundedSlots(1, 0);
    await noWait.take('a', refused);
    await expect(noWait.take('a', refused)).rejects.toThrow('refused');
  });

  it('counts a slot released twice once', async () => {
    const slots = new BoundedSlots(1, 0);
    const release = await slots.take('a', refused);
    release();
    release();
    expect(slots.holding('a')).toBe(0);
  });
});
