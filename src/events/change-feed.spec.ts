import type { DataSource } from 'typeorm';
import type { ChangeLog } from '../change-log/change-log.repository';
import { ChangeFeed, type FeedSubscriber } from './change-feed';
import type { EventMetrics } from './event-metrics';
import type { EventsConfig } from './events.config';

/**
 * The feed starts one reader (one poll timer, one local wake-up) however
 * many streams subscribe at once, and leaves nothing running once the last
 * one is gone: streams open in bursts (a deploy reconnects every browser),
 * and each reader left behind would read the log every EVENTS_POLL_MS.
 */
describe('ChangeFeed', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function feedOn() {
    const stopped = jest.fn();
    const log = {
      bounds: jest.fn(() => Promise.resolve({ latest: 5, purgedThrough: 0 })),
      onAppended: jest.fn(() => stopped),
      after: jest.fn(() => Promise.resolve([])),
    };
    const feed = new ChangeFeed(
      log as unknown as ChangeLog,
      { options: { type: 'better-sqlite3' } } as unknown as DataSource,
      { pollMs: 1_000 } as EventsConfig,
      { delivered: jest.fn() } as unknown as EventMetrics,
    );
    return { feed, log, stopped };
  }

  const subscriber = (userId: string): FeedSubscriber => ({
    scope: { userId },
    deliver: jest.fn(),
  });

  it('starts one reader for streams that subscribe at the same time, and stops it with the last', async () => {
    const { feed, log, stopped } = feedOn();
    const subscribers = ['ana', 'ben', 'cy'].map(subscriber);

    const cursors = await Promise.all(
      subscribers.map((one) => feed.subscribe(one)),
    );

    expect(cursors).toEqual([5, 5, 5]);
    expect(log.onAppended).toHaveBeenCalledTimes(1);
    expect(jest.getTimerCount()).toBe(1);

    for (const one of subscribers) feed.unsubscribe(one);
    expect(stopped).toHaveBeenCalledTimes(1);
    expect(jest.getTimerCount()).toBe(0);
  });
});
