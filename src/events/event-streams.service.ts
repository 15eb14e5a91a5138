import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import {
  ChangeLog,
  type ChangeScope,
} from '../change-log/change-log.repository';
import { networkOf } from '../common/client-network';
import { ChangeFeed } from './change-feed';
import { eventsConfig, type EventsConfig } from './events.config';
import {
  StreamsFullError,
  TooManyStreamsError,
  TooManyUnscopedStreamsError,
} from './events.errors';
import type { EventSink } from '../common/event-sink';
import { EventMetrics } from './event-metrics';
import { LiveStream, type CloseReason } from './live-stream';
import { EventPresenter } from './presented-event';
import { ReplayMeter } from './replay-meter';
import { instanceStreamLimit } from './stream-heap-cap';

/** The reconnection delay a stream advises (SSE `retry:`), in ms. */
export const RECONNECT_MS = 2_000;
/** At shutdown: reconnect at once, to another replica. */
const SHUTDOWN_RECONNECT_MS = 250;
/** Rows read per statement while replaying. */
const REPLAY_BATCH = 500;
/** A Last-Event-ID: the decimal id of an event. */
const EVENT_ID = /^\d{1,15}$/;

/** One stream to open: what it shows, from where, for whom. */
export interface StreamRequest {
  scope: ChangeScope;
  /** Last-Event-ID (header or query): resume after this event. */
  lastEventId: string | undefined;
  /** Who the stream counts against (EVENTS_CLIENT_LIMIT). */
  clientKey: string;
  /** The origin the events' URLs (an asset's `url`) are made with. */
  baseUrl: string;
  /** When the caller's proof expires: the stream ends then. */
  expiresAt: number | undefined;
  /**
   * The address of a caller nobody proved (AUTH_MODE=none): its unscoped
   * streams count against EVENTS_UNSCOPED_ADDRESS_LIMIT and, by network,
   * EVENTS_UNSCOPED_NETWORK_LIMIT. Undefined for a proven caller.
   */
  anonymousAddress?: string;
}

/**
 * The live-change streams of this instance: opens them (limits first,
 * then the replay of what a resuming client missed, then live events from
 * the feed), keeps them alive with a comment every EVENTS_HEARTBEAT_S,
 * ends them when the caller's token expires, and closes them all with a
 * short `retry:` when the process stops.
 */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly streams = new Set<LiveStream>();
  private readonly perClient = new Map<string, number>();
  /** Anonymous unscoped streams, by address and by network. */
  private readonly unscoped = new Map<string, number>();
  private readonly unscopedKeys = new WeakMap<LiveStream, string[]>();
  private readonly meter: ReplayMeter;
  /** Streams counted against the instance (perClient's total). */
  private admitted = 0;
  /** EVENTS_INSTANCE_LIMIT, or fewer when the heap holds fewer streams. */
  private readonly instanceLimit: number;
  private readonly expiries = new WeakMap<LiveStream, NodeJS.Timeout>();
  private heartbeat: NodeJS.Timeout | undefined;
  private stopping = false;

  constructor(
    private readonly log: ChangeLog,
    private readonly feed: ChangeFeed,
    @Inject(eventsConfig.KEY) private readonly config: EventsConfig,
    private readonly metrics: EventMetrics,
    private readonly presenter: EventPresenter,
  ) {
    this.meter = new ReplayMeter(config.replayRatePerSecond);
    this.instanceLimit = instanceStreamLimit(config.instanceLimit);
    if (this.instanceLimit < config.instanceLimit) {
      new Logger('Events').warn(
        `EVENTS_INSTANCE_LIMIT=${config.instanceLimit} is more streams than this process's heap holds; at most ${this.instanceLimit} are admitted (raise --max-old-space-size for more)`,
      );
    }
  }

  /** Answers with the stream into `sink`; throws (before any byte) when refused. */
  async open(request: StreamRequest, sink: EventSink): Promise<void> {
    const unscopedKeys = this.admitUnscoped(request);
    try {
      this.admit(request.clientKey);
    } catch (error) {
      this.releaseUnscoped(unscopedKeys);
      throw error;
    }
    let stream: LiveStream | undefined;
    let added = false;
    try {
      const start = await this.startOf(request.lastEventId);
      stream = new LiveStream(
        request.scope,
        request.clientKey,
        sink,
        this.config.bufferLimitBytes,
        this.config.replayStallSeconds * 1000,
        (reason) => this.forget(stream, reason),
        (event) => this.presenter.present(event, request.baseUrl),
      );
      this.begin(sink);
      const opened = stream;
      sink.onClose(() => this.forget(opened));
      // From here on, forget() gives the slot back.
      this.streams.add(stream);
      this.unscopedKeys.set(stream, unscopedKeys);
      added = true;
      this.metrics.opened();
      // Gone before the handler above was there: its close has passed.
      if (sink.clientGone) {
        this.forget(stream);
        return;
      }
      this.expireAt(stream, request.expiresAt);
      const cursor = await this.feed.subscribe(stream);
      // The client may have gone while the feed started.
      if (!this.streams.has(stream)) {
        this.feed.unsubscribe(stream);
        return;
      }
      // Without Last-Event-ID: what happens from now on.
      const from = start.from ?? cursor;
      stream.startAfter(from);
      if (start.reset) {
        stream.reset(from, start.reset);
        this.metrics.reset();
      } else if (start.from !== undefined) {
        this.metrics.replay();
      }
      await this.replay(stream, from, cursor);
      this.metrics.wrote(await stream.live());
    } catch (error) {
      // Before the stream was added, its slot is still this call's.
      if (!added) {
        this.release(request.clientKey);
        this.releaseUnscoped(unscopedKeys);
      }
      if (!stream) throw error;
      // Headers are out: the client sees a dropped stream and resumes.
      sink.destroy();
    }
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    clearInterval(this.heartbeat);
    for (const stream of [...this.streams]) {
      stream.end('shutdown', SHUTDOWN_RECONNECT_MS);
    }
  }

  /** Counts the stream against its client and the instance, or refuses it. */
  private admit(clientKey: string): void {
    if (this.stopping) throw new StreamsFullError('stopping');
    const held = this.perClient.get(clientKey) ?? 0;
    if (held >= this.config.clientLimit) {
      throw new TooManyStreamsError(this.config.clientLimit);
    }
    if (this.admitted >= this.instanceLimit) {
      throw new StreamsFullError('full');
    }
    this.perClient.set(clientKey, held + 1);
    this.admitted++;
  }

  /**
   * Counts an anonymous unscoped stream against its address and its
   * network, or refuses it (429): every such stream receives every event,
   * so many of them from a few networks could take the instance.
   */
  private admitUnscoped(request: StreamRequest): string[] {
    const { scope, anonymousAddress } = request;
    if (anonymousAddress === undefined || scope.projectId || scope.userId) {
      return [];
    }
    const limits: Array<[string, number]> = [
      [`address ${anonymousAddress}`, this.config.unscopedAddressLimit],
      [
        `network ${networkOf(anonymousAddress)}`,
        this.config.unscopedNetworkLimit,
      ],
    ];
    for (const [key, limit] of limits) {
      if ((this.unscoped.get(key) ?? 0) >= limit) {
        this.metrics.refusedUnscoped(key.split(' ')[0]);
        throw new TooManyUnscopedStreamsError();
      }
    }
    for (const [key] of limits) {
      this.unscoped.set(key, (this.unscoped.get(key) ?? 0) + 1);
    }
    return limits.map(([key]) => key);
  }

  private releaseUnscoped(keys: readonly string[]): void {
    for (const key of keys) {
      const held = (this.unscoped.get(key) ?? 1) - 1;
      if (held > 0) this.unscoped.set(key, held);
      else this.unscoped.delete(key);
    }
  }

  private release(clientKey: string): void {
    this.admitted--;
    const held = (this.perClient.get(clientKey) ?? 1) - 1;
    if (held > 0) this.perClient.set(clientKey, held);
    else this.perClient.delete(clientKey);
  }

  /**
   * Where the stream starts: after the client's Last-Event-ID when every
   * event after it is still kept; else (purged, or an id this log never
   * gave) after the newest event, with a `reset` first.
   */
  private async startOf(lastEventId: string | undefined): Promise<{
    from?: number;
    reset?: 'purged' | 'unknown';
  }> {
    if (lastEventId === undefined) return {};
    const bounds = await this.log.bounds();
    const id = EVENT_ID.test(lastEventId) ? Number(lastEventId) : undefined;
    if (id === undefined || id > bounds.latest) {
      return { from: bounds.latest, reset: 'unknown' };
    }
    if (id < bounds.purgedThrough) {
      return { from: bounds.latest, reset: 'purged' };
    }
    return { from: id };
  }

  private begin(sink: EventSink): void {
    sink.begin(`retry: ${RECONNECT_MS}\n\n`);
    this.heartbeat ??= this.startHeartbeat();
  }

  /**
   * Events after `from` up to `cursor` (the feed sends those after it), a
   * batch per statement: on SQLite every statement waits in the one
   * database queue, so the replay never holds it for more than one batch,
   * and it yields a turn between batches to the other requests.
   */
  private async replay(
    stream: LiveStream,
    from: number,
    cursor: number,
  ): Promise<void> {
    let after = from;
    while (after < cursor && stream.open) {
      const events = await this.log.after(after, stream.scope, REPLAY_BATCH);
      const upToCursor = events.filter((event) => Number(event.id) <= cursor);
      // Paced to the client's EVENTS_REPLAY_RATE across its streams: a
      // deep replay waits rather than being refused, but ten streams
      // replaying a large log in a loop cannot take the process.
      const wait = this.meter.take(stream.clientKey, upToCursor.length);
      if (wait > 0) {
        this.metrics.paced(upToCursor.length, wait);
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (!stream.open) return;
      }
      this.metrics.wrote(await stream.replayed(upToCursor));
      if (events.length < REPLAY_BATCH || upToCursor.length < events.length) {
        return;
      }
      after = Number(events[events.length - 1].id);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private expireAt(stream: LiveStream, expiresAt: number | undefined): void {
    if (expiresAt === undefined) return;
    // setTimeout holds at most ~24.8 days; a token never lives that long.
    const delay = Math.min(Math.max(0, expiresAt - Date.now()), 2 ** 31 - 1);
    const timer = setTimeout(() => stream.end('expired'), delay);
    timer.unref();
    this.expiries.set(stream, timer);
  }

  private forget(stream: LiveStream | undefined, reason?: CloseReason): void {
    if (!stream || !this.streams.delete(stream)) return;
    clearTimeout(this.expiries.get(stream));
    this.feed.unsubscribe(stream);
    this.release(stream.clientKey);
    this.releaseUnscoped(this.unscopedKeys.get(stream) ?? []);
    this.metrics.closed();
    if (reason) this.metrics.closedBy(reason);
    if (this.streams.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  private startHeartbeat(): NodeJS.Timeout {
    const timer = setInterval(() => {
      for (const stream of this.streams) stream.write(': keep-alive\n\n');
      this.meter.sweep();
    }, this.config.heartbeatSeconds * 1000);
    timer.unref();
    return timer;
  }
}
