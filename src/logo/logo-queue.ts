import {
  ServiceBusyError,
  TooManyRequestsError,
} from '../failures/retry-later.error';
import { LOGO_BUSY_MESSAGE, LOGO_RATE_LIMITED_MESSAGE } from './logo.constants';

export interface LogoQueueSettings {
  /** Upstream calls in flight at once. */
  concurrency: number;
  /** Requests that may wait for a slot; one more is refused. */
  queueLimit: number;
  /** Retry-After of the refusal. */
  busyRetryAfterSeconds: number;
  /**
   * Requests of one client (a user, or an address without auth) holding a
   * slot or a place in line at once; one more of theirs is refused (429).
   */
  clientLimit: number;
}

/** A request's place: a call slot, or a place in the line for one. */
export interface QueueTicket {
  /**
   * Resolves once the ticket holds a slot. If `signal` aborts first, the
   * ticket leaves the queue and this rejects with the signal's reason.
   */
  acquired(signal: AbortSignal): Promise<void>;
  /** Frees the slot (the next in line gets it) or leaves the queue. Idempotent. */
  release(): void;
}

type TicketState = 'waiting' | 'holding' | 'released';

/**
 * Bounds the paid, slow upstream calls of this process: at most
 * `concurrency` at once, then a first-in-first-out line of at most
 * `queueLimit` requests; past that, requests are refused at once (503), so
 * a burst turns into quick refusals instead of ever longer waits. No client
 * holds more than `clientLimit` of the slots and places together, so one
 * caller cannot fill the line and make everyone else wait or be refused.
 */
export class LogoQueue {
  private active = 0;
  private readonly line: Ticket[] = [];
  /** Tickets (holding or waiting) per client; a client with none is absent. */
  private readonly perClient = new Map<string, number>();

  constructor(private readonly settings: LogoQueueSettings) {}

  /** Upstream calls holding a slot now. */
  get inFlight(): number {
    return this.active;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.line.length;
  }

  /**
   * Takes a slot or a place in line for `client`, or throws at once:
   * TooManyRequestsError when the client already holds `clientLimit`
   * tickets, ServiceBusyError when the line is full.
   */
  admit(client: string): QueueTicket {
    const held = this.perClient.get(client) ?? 0;
    if (held >= this.settings.clientLimit) {
      throw new TooManyRequestsError(
        LOGO_RATE_LIMITED_MESSAGE,
        this.settings.busyRetryAfterSeconds,
      );
    }
    let ticket: Ticket;
    if (this.active < this.settings.concurrency) {
      this.active++;
      ticket = new Ticket(this, 'holding', client);
    } else if (this.line.length >= this.settings.queueLimit) {
      throw new ServiceBusyError(
        LOGO_BUSY_MESSAGE,
        this.settings.busyRetryAfterSeconds,
      );
    } else {
      ticket = new Ticket(this, 'waiting', client);
      this.line.push(ticket);
    }
    this.perClient.set(client, held + 1);
    return ticket;
  }

  /** @internal Called once by a ticket when it is released. */
  forget(client: string): void {
    const held = (this.perClient.get(client) ?? 1) - 1;
    if (held > 0) this.perClient.set(client, held);
    else this.perClient.delete(client);
  }

  /** @internal Called by a ticket that gives up its slot. */
  freeSlot(): void {
    this.active--;
    while (this.active < this.settings.concurrency && this.line.length > 0) {
      this.active++;
      this.line.shift()?.grant();
    }
  }

  /** @internal Called by a waiting ticket that gives up its place. */
  leaveLine(ticket: Ticket): void {
    const index = this.line.indexOf(ticket);
    if (index >= 0) this.line.splice(index, 1);
  }
}

class Ticket implements QueueTicket {
  private readonly granted: Promise<void>;
  private resolveGranted!: () => void;

  constructor(
    private readonly queue: LogoQueue,
    private state: TicketState,
    private readonly client: string,
  ) {
    this.granted = new Promise<void>((resolve) => {
      this.resolveGranted = resolve;
    });
    if (state === 'holding') this.resolveGranted();
  }

  grant(): void {
    this.state = 'holding';
    this.resolveGranted();
  }

  acquired(signal: AbortSignal): Promise<void> {
    if (signal.aborted) {
      this.release();
      return Promise.reject(signal.reason as Error);
    }
    if (this.state === 'holding') return Promise.resolve();
    if (this.state === 'released') {
      return Promise.reject(new Error('The ticket was released'));
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.release();
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      void this.granted.then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  release(): void {
    if (this.state === 'holding') {
      this.state = 'released';
      this.queue.forget(this.client);
      this.queue.freeSlot();
    } else if (this.state === 'waiting') {
      this.state = 'released';
      this.queue.forget(this.client);
      this.queue.leaveLine(this);
    }
  }
}
