import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { ChangeEvent } from '../change-log/change-event';
import {
  CHANGE_CHANNEL,
  ChangeLog,
  type ChangeScope,
} from '../change-log/change-log.repository';
import { eventsConfig, type EventsConfig } from './events.config';
import { EventMetrics } from './event-metrics';

/** Rows read per statement while catching up. */
const BATCH = 500;

/** What a subscriber watches, as the feed indexes it. */
const watchKey = (scope: ChangeScope): string =>
  scope.projectId !== undefined
    ? `project:${scope.projectId}`
    : scope.userId !== undefined
      ? `user:${scope.userId}`
      : 'all';

/** Receives the events of its scope, in id order, each once. */
export interface FeedSubscriber {
  readonly scope: ChangeScope;
  deliver(event: ChangeEvent): void;
}

/**
 * This instance's one reader of the change log: it reads each new event
 * once, in id order, and hands it to the streams whose scope it is in
 * (their user's, their project's, or all for an admin). It reads when this
 * process commits events, when PostgreSQL notifies a commit on another
 * replica, and every EVENTS_POLL_MS besides: the log is the source of
 * truth, a lost notification only delays. It runs only while a stream is
 * open.
 */
@Injectable()
export class ChangeFeed implements OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  /** Subscribers by what they watch: `project:<id>`, `user:<id>` or `all`. */
  private readonly watching = new Map<string, Set<FeedSubscriber>>();
  private count = 0;
  /** The last id handed out; undefined while nobody listens. */
  private cursor: number | undefined;
  private starting: Promise<void> | undefined;
  private reading = false;
  private again = false;
  private poll: NodeJS.Timeout | undefined;
  private stopLocal: (() => void) | undefined;
  private listener: Client | undefined;
  private readonly pool: Pool | undefined;

  constructor(
    private readonly log: ChangeLog,
    @InjectDataSource() dataSource: DataSource,
    @Inject(eventsConfig.KEY) private readonly config: EventsConfig,
    private readonly metrics: EventMetrics,
  ) {
    this.pool =
      dataSource.options.type === 'postgres'
        ? (dataSource.driver as unknown as { master: Pool }).master
        : undefined;
  }

  /**
   * Adds a subscriber; it receives every event of its scope with an id
   * above the answer (events up to it are the caller's to replay).
   */
  async subscribe(subscriber: FeedSubscriber): Promise<number> {
    // The first subscriber starts the feed; those arriving meanwhile wait.
    this.starting ??= this.start().catch((error: unknown) => {
      // The next subscriber tries again.
      this.starting = undefined;
      throw error;
    });
    await this.starting;
    const key = watchKey(subscriber.scope);
    let set = this.watching.get(key);
    if (!set) {
      set = new Set();
      this.watching.set(key, set);
    }
    set.add(subscriber);
    this.count++;
    return this.cursor ?? 0;
  }

  unsubscribe(subscriber: FeedSubscriber): void {
    const key = watchKey(subscriber.scope);
    const set = this.watching.get(key);
    if (!set?.delete(subscriber)) return;
    if (set.size === 0) this.watching.delete(key);
    this.count--;
    if (this.count === 0) this.stop();
  }

  onApplicationShutdown(): void {
    this.stop();
  }

  private async start(): Promise<void> {
    const { latest } = await this.log.bounds();
    this.cursor = latest;
    this.stopLocal = this.log.onAppended(() => this.read());
    this.poll = setInterval(() => this.read(), this.config.pollMs);
    this.poll.unref();
    if (this.pool) void this.listen();
  }

  private stop(): void {
    this.starting = undefined;
    clearInterval(this.poll);
    this.poll = undefined;
    this.stopLocal?.();
    this.stopLocal = undefined;
    this.cursor = undefined;
    const listener = this.listener;
    this.listener = undefined;
    listener?.removeAllListeners();
    void listener?.end().catch(() => undefined);
  }

  /** LISTEN on a connection of its own: other replicas' commits wake the feed. */
  private async listen(): Promise<void> {
    if (!this.pool || this.listener) return;
    const client = new Client(this.pool.options);
    this.listener = client;
    client.on('notification', () => this.read());
    client.on('error', (error) => {
      // The poll keeps delivering; the next start listens again.
      this.logger.warn(`Listening for changes failed: ${error.message}`);
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (this.listener !== client) await client.end();
    } catch (error) {
      this.logger.warn(
        `Listening for changes failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (this.listener === client) this.listener = undefined;
      await client.end().catch(() => undefined);
    }
  }

  /** Reads every event after the cursor and hands each out; one read at a time. */
  private read(): void {
    if (this.cursor === undefined) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.catchUp()
      .catch((error: unknown) =>
        this.logger.warn(
          `Reading the change log failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => {
        this.reading = false;
      });
    if (this.pool && !this.listener) void this.listen();
  }

  private async catchUp(): Promise<void> {
    do {
      this.again = false;
      for (;;) {
        if (this.cursor === undefined) return;
        const events = await this.log.after(this.cursor, {}, BATCH);
        for (const event of events) {
          if (this.cursor === undefined) return;
          this.cursor = Number(event.id);
          this.dispatch(event);
        }
        if (events.length < BATCH) break;
      }
    } while (this.again);
  }

  private dispatch(event: ChangeEvent): void {
    this.metrics.delivered(event);
    const keys = [
      watchKey({ projectId: event.projectId }),
      watchKey({ userId: event.userId }),
      watchKey({}),
    ];
    for (const key of keys) {
      const set = this.watching.get(key);
      if (!set) continue;
      for (const subscriber of set) subscriber.deliver(event);
    }
  }
}
