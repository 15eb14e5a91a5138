import type { Response } from 'express';
import type { ChangeEvent } from '../change-log/change-event';
import type { ChangeScope } from '../change-log/change-log.repository';
import type { FeedSubscriber } from './change-feed';

/** Events a stream holds while it replays what it missed; past it, it is cut. */
const MAX_HELD_WHILE_REPLAYING = 1_000;

export type CloseReason = 'slow_reader' | 'expired' | 'shutdown' | 'deleted';

/** An event as text/event-stream frames it. */
export const eventFrame = (event: ChangeEvent): string =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * One open text/event-stream response. It sends each event once and in id
 * order, whether it comes from the replay or from the feed (live events
 * that arrive during the replay wait until it ends), and it never buffers
 * without limit: past `bufferLimitBytes` of unsent bytes, or
 * MAX_HELD_WHILE_REPLAYING events held, the connection is cut and the
 * client resumes with Last-Event-ID.
 */
export class LiveStream implements FeedSubscriber {
  private lastId = 0;
  private held: ChangeEvent[] | undefined = [];
  private ended = false;

  constructor(
    readonly scope: ChangeScope,
    readonly clientKey: string,
    private readonly response: Response,
    private readonly bufferLimitBytes: number,
    private readonly onClose: (reason: CloseReason) => void,
  ) {}

  /** Sends only events after `id` (those up to it were sent or replayed). */
  startAfter(id: number): void {
    this.lastId = id;
  }

  get open(): boolean {
    return !this.ended && !this.response.destroyed;
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

  /** From the replay; then `live` hands over to the feed. */
  replayed(events: readonly ChangeEvent[]): number {
    let sent = 0;
    for (const event of events) if (this.send(event)) sent++;
    return sent;
  }

  live(): number {
    const held = this.held ?? [];
    this.held = undefined;
    return this.replayed(held);
  }

  /** Tells the client to refetch; the stream goes on from `latest`. */
  reset(latest: number, reason: 'purged' | 'unknown'): void {
    this.lastId = latest;
    this.write(
      `id: ${latest}\nevent: reset\ndata: ${JSON.stringify({ reason, lastEventId: String(latest) })}\n\n`,
    );
  }

  write(text: string): void {
    if (!this.open) return;
    this.response.write(text);
    // A client that stops reading: what it has not taken stays here.
    if (this.response.writableLength > this.bufferLimitBytes) {
      this.cut('slow_reader');
    }
  }

  /** Ends the stream (its `retry:` advice first, when given). */
  end(reason: CloseReason, retryMs?: number): void {
    if (!this.open) return;
    if (retryMs !== undefined) this.response.write(`retry: ${retryMs}\n\n`);
    this.ended = true;
    this.onClose(reason);
    this.response.end();
  }

  private cut(reason: CloseReason): void {
    if (this.ended) return;
    this.ended = true;
    this.onClose(reason);
    this.response.destroy();
  }

  private send(event: ChangeEvent): boolean {
    const id = Number(event.id);
    if (id <= this.lastId || !this.open) return false;
    this.lastId = id;
    this.write(eventFrame(event));
    if (event.type === 'project.deleted' && this.scope.projectId) {
      this.end('deleted');
    }
    return true;
  }
}
