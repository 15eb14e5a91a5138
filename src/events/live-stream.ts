import type { ChangeEvent } from '../change-log/change-event';
import type { ChangeScope } from '../change-log/change-log.repository';
import type { FeedSubscriber } from './change-feed';
import type { EventSink } from '../common/event-sink';
import type { PresentedChangeEvent } from './presented-event';

/** Events a stream holds while it replays what it missed; past it, it is cut. */
const MAX_HELD_WHILE_REPLAYING = 1_000;

export type CloseReason = 'slow_reader' | 'expired' | 'shutdown' | 'deleted';

/** An event as text/event-stream frames it. */
export const eventFrame = (event: PresentedChangeEvent): string =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * One open text/event-stream response. It sends each event once and in id
 * order, whether it comes from the replay or from the feed (live events
 * that arrive during the replay wait until it ends), and it never buffers
 * without limit: past `bufferLimitBytes` of unsent bytes, or
 * MAX_HELD_WHILE_REPLAYING events held, the connection is cut and the
 * client resumes with Last-Event-ID. The replay itself is paced by the
 * socket instead: it waits for the client to take what was written
 * ('drain'), so a resume of any depth the log still holds gets through
 * (written at once, a few thousand events would pass the buffer limit
 * before the socket had a turn, every time); a replaying client that takes
 * nothing for `stallMs` is cut.
 */
export class LiveStream implements FeedSubscriber {
  private lastId = 0;
  private held: ChangeEvent[] | undefined = [];
  private ended = false;

  constructor(
    readonly scope: ChangeScope,
    readonly clientKey: string,
    private readonly sink: EventSink,
    private readonly bufferLimitBytes: number,
    /** How long the replay waits for a client that takes nothing. */
    private readonly stallMs: number,
    private readonly onClose: (reason: CloseReason) => void,
    /** The event as this stream sends it (EventPresenter). */
    private readonly present: (event: ChangeEvent) => PresentedChangeEvent,
  ) {}

  /** Sends only events after `id` (those up to it were sent or replayed). */
  startAfter(id: number): void {
    this.lastId = id;
  }

  get open(): boolean {
    return !this.ended && !this.sink.closed;
  }

  /** From the feed. */
  deliver(event: ChangeEvent): void {
    if (!this.open) return;
    if (this.held) {
      this.held.push(event);
      if (this.held.length > MAX_HELD_WHILE_REPLAYING) this.cut('slow_reader');
      return;
    }
    this.send(event);
  }

  /**
   * From the replay: sends the events, waiting whenever the socket's buffer
   * is full until the client has taken it; then `live` hands over to the
   * feed.
   */
  async replayed(events: readonly ChangeEvent[]): Promise<number> {
    let sent = 0;
    for (const event of events) {
      if (!this.open) break;
      if (this.send(event, false)) sent++;
      if (this.sink.needsDrain) await this.drained();
    }
    return sent;
  }

  /** Sends the events held during the replay (paced alike), then goes live. */
  async live(): Promise<number> {
    let sent = 0;
    while (this.held && this.held.length > 0 && this.open) {
      sent += await this.replayed(this.held.splice(0));
    }
    this.held = undefined;
    return sent;
  }

  /** Tells the client to refetch; the stream goes on from `latest`. */
  reset(latest: number, reason: 'purged' | 'unknown'): void {
    this.lastId = latest;
    this.write(
      `id: ${latest}\nevent: reset\ndata: ${JSON.stringify({ type: 'reset', reason, lastEventId: String(latest) })}\n\n`,
    );
  }

  write(text: string, bounded = true): void {
    if (!this.open) return;
    this.sink.write(text);
    // A client that stops reading: what it has not taken stays here.
    if (bounded && this.sink.unsentBytes > this.bufferLimitBytes) {
      this.cut('slow_reader');
    }
  }

  /** Ends the stream (its `retry:` advice first, when given). */
  end(reason: CloseReason, retryMs?: number): void {
    if (!this.open) return;
    if (retryMs !== undefined) this.sink.write(`retry: ${retryMs}\n\n`);
    this.ended = true;
    this.onClose(reason);
    this.sink.end();
  }

  private cut(reason: CloseReason): void {
    if (this.ended) return;
    this.ended = true;
    this.onClose(reason);
    // A reset, not a close: what the client has not read is dropped at
    // once on both ends, and a client that stopped reading still learns
    // the stream is over (a plain close would wait behind its unread bytes).
    this.sink.reset();
  }

  /**
   * Resolves once the client took the buffered bytes, or the stream ended;
   * a client that takes nothing for `stallMs` is cut.
   */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      let stopListening = () => {};
      const done = () => {
        clearTimeout(stalled);
        stopListening();
        resolve();
      };
      const stalled = setTimeout(() => {
        this.cut('slow_reader');
        done();
      }, this.stallMs);
      stalled.unref();
      stopListening = this.sink.onDrainOrClose(done);
      if (!this.open || !this.sink.needsDrain) done();
    });
  }

  private send(event: ChangeEvent, bounded = true): boolean {
    const id = Number(event.id);
    if (id <= this.lastId || !this.open) return false;
    this.lastId = id;
    this.write(eventFrame(this.present(event)), bounded);
    if (event.type === 'project.deleted' && this.scope.projectId) {
      this.end('deleted');
    }
    return true;
  }
}
