import { Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { tasksConfig } from '../tasks.config';
import { EmbeddedTaskEngine } from './embedded-task-engine';
import type { TaskDelivery, TaskOutcome } from './task-engine';
import { TaskScheduleRepository } from './task-schedule.repository';

const LEASE_MS = 30_000;
const NOW = new Date('2026-03-01T12:00:00.000Z').getTime();

/** A handler whose deliveries stay in hand until the test settles them. */
function heldHandler() {
  const deliveries: Array<
    TaskDelivery & { settle(outcome: TaskOutcome): void; fail(): void }
  > = [];
  const handler = jest.fn(
    (delivery: TaskDelivery) =>
      new Promise<TaskOutcome>((resolve, reject) => {
        deliveries.push({
          ...delivery,
          settle: resolve,
          fail: () => reject(new Error('handler bug')),
        });
      }),
  );
  const ids = () => deliveries.map((delivery) => delivery.taskId);
  return { handler, deliveries, ids };
}

async function build(queue: string[]) {
  const line = [...queue];
  const schedule = {
    take: jest.fn(() => Promise.resolve(line.shift())),
    renew: jest.fn().mockResolvedValue(undefined),
    release: jest.fn().mockResolvedValue(undefined),
  };
  const moduleRef = await Test.createTestingModule({
    providers: [
      EmbeddedTaskEngine,
      { provide: TaskScheduleRepository, useValue: schedule },
      {
        provide: tasksConfig.KEY,
        useValue: { ...tasksConfig({}), leaseSeconds: LEASE_MS / 1000 },
      },
    ],
  }).compile();
  return { engine: moduleRef.get(EmbeddedTaskEngine), schedule, line };
}

/**
 * Stops the engine: a delivery still in hand is waited for, at most ten
 * seconds (of the fake clock).
 */
async function shutDown(engine: EmbeddedTaskEngine): Promise<void> {
  const stopping = engine.stop();
  await jest.advanceTimersByTimeAsync(10_100);
  await stopping;
}

/** Lets the engine's promises and immediate callbacks run. */
const settle = () => jest.advanceTimersByTimeAsync(1);

/** Starts `workers` workers on a held handler, and lets them take work. */
async function startHeld(engine: EmbeddedTaskEngine, workers: number) {
  const held = heldHandler();
  await engine.startWorkers(held.handler, workers);
  await settle();
  return held;
}

describe('EmbeddedTaskEngine', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it("takes work up to its concurrency, in the schedule's order, each with a lease", async () => {
    const { engine, schedule } = await build(['a', 'b', 'c', 'd']);
    const { ids } = await startHeld(engine, 2);
    expect(ids()).toEqual(['a', 'b']);
    expect(schedule.take).toHaveBeenCalledTimes(2);
    expect(schedule.take).toHaveBeenCalledWith(
      new Date(NOW),
      new Date(NOW + LEASE_MS),
    );
    await shutDown(engine);
  });

  it('a worker that comes free releases its task and takes the next in line', async () => {
    const { engine, schedule } = await build(['a', 'b', 'c']);
    const { deliveries, ids } = await startHeld(engine, 2);
    deliveries[0].settle({ kind: 'settled' });
    await settle();
    expect(schedule.release).toHaveBeenCalledWith('a', expect.any(Date));
    const [, runAfter] = schedule.release.mock.calls[0] as [string, Date];
    expect(runAfter.getTime()).toBeLessThanOrEqual(Date.now());
    expect(ids()).toEqual(['a', 'b', 'c']);
    await shutDown(engine);
  });

  it('a retry is released to run again no sooner than its delay', async () => {
    const { engine, schedule } = await build(['a']);
    const { deliveries } = await startHeld(engine, 1);
    const settledAt = Date.now();
    deliveries[0].settle({ kind: 'retry', delayMs: 8000 });
    await settle();
    expect(schedule.release).toHaveBeenCalledWith(
      'a',
      new Date(settledAt + 8000),
    );
    await shutDown(engine);
  });

  it('a handler that throws has its task released to run again after a pause', async () => {
    const logged = jest
      .spyOn(Logger.prototype, 'error')
      .mockImplementation(() => undefined);
    const { engine, schedule } = await build(['a']);
    const { deliveries } = await startHeld(engine, 1);
    const failedAt = Date.now();
    deliveries[0].fail();
    await settle();
    expect(schedule.release).toHaveBeenCalledWith(
      'a',
      new Date(failedAt + 5000),
    );
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    await shutDown(engine);
  });

  it('a task already in hand is not delivered twice, and stops the fill', async () => {
    const { engine, schedule, line } = await build(['a']);
    const { ids } = await startHeld(engine, 3);
    // Its lease was just renewed: the schedule gives it again.
    line.push('a', 'b');
    await engine.enqueue();
    await settle();
    expect(ids()).toEqual(['a']);
    expect(schedule.take).toHaveBeenCalledTimes(3);
    await shutDown(engine);
  });

  it('enqueue wakes the workers at once, without waiting for the poll', async () => {
    const { engine, line } = await build([]);
    const { ids } = await startHeld(engine, 2);
    line.push('a');
    await engine.enqueue();
    await settle();
    expect(ids()).toEqual(['a']);
    await shutDown(engine);
  });

  it('idle workers look for due tasks every second', async () => {
    const { engine, line } = await build([]);
    const { ids } = await startHeld(engine, 2);
    line.push('a');
    await jest.advanceTimersByTimeAsync(500);
    expect(ids()).toEqual([]);
    await jest.advanceTimersByTimeAsync(600);
    expect(ids()).toEqual(['a']);
    await shutDown(engine);
  });

  it('a wake-up during a fill makes the fill look again', async () => {
    const { engine, schedule, line } = await build([]);
    let answer: (id: string | undefined) => void = () => undefined;
    schedule.take.mockImplementationOnce(
      () => new Promise((resolve) => (answer = resolve)),
    );
    const { ids } = await startHeld(engine, 2);
    // A task queued while the first take was on its way.
    line.push('a');
    await engine.enqueue();
    await settle();
    answer(undefined);
    await settle();
    expect(ids()).toEqual(['a']);
    await shutDown(engine);
  });

  it("renews a running task's lease every third of it", async () => {
    const { engine, schedule } = await build(['a']);
    await startHeld(engine, 1);
    await jest.advanceTimersByTimeAsync(LEASE_MS / 3);
    expect(schedule.renew).toHaveBeenCalledTimes(1);
    // Taken at NOW, renewed a third of the lease later, for a whole lease.
    expect(schedule.renew).toHaveBeenCalledWith(
      'a',
      new Date(NOW + LEASE_MS / 3 + LEASE_MS),
    );
    await shutDown(engine);
  });

  it('stop aborts the deliveries in hand, waits for them, and takes nothing more', async () => {
    const { engine, schedule, line } = await build(['a']);
    const { deliveries } = await startHeld(engine, 2);
    const stopped = engine.stop();
    expect(deliveries[0].signal.aborted).toBe(true);
    let done = false;
    void stopped.then(() => (done = true));
    await jest.advanceTimersByTimeAsync(100);
    expect(done).toBe(false);
    deliveries[0].settle({ kind: 'retry', delayMs: 0 });
    await jest.advanceTimersByTimeAsync(100);
    expect(done).toBe(true);
    const takes = schedule.take.mock.calls.length;
    line.push('b');
    await engine.enqueue();
    await jest.advanceTimersByTimeAsync(2000);
    expect(schedule.take).toHaveBeenCalledTimes(takes);
  });

  it('a schedule that cannot be read is logged, and the next look tries again', async () => {
    const warned = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation(() => undefined);
    const { engine, schedule } = await build(['a']);
    schedule.take.mockRejectedValueOnce(new Error('SQLITE_BUSY'));
    const { ids } = await startHeld(engine, 1);
    expect(warned).toHaveBeenCalledWith(expect.stringContaining('SQLITE_BUSY'));
    expect(ids()).toEqual([]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(ids()).toEqual(['a']);
    warned.mockRestore();
    await shutDown(engine);
  });
});
