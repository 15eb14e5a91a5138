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

/**
 * Call slots one client may hold at once: half of them (at least one), so
 * that one client never holds every slot, whatever IMAGE_API_CLIENT_LIMIT
 * says; its other requests wait in line while another client's go first.
 */
export function slotShare(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

/**
 * Tickets one address may hold (slots and places together), whatever
 * identities it shows: four clients' worth, and never more than half the
 * slots and line together.
 */
export function addressShare(settings: LogoQueueSettings): number {
  return Math.max(
    settings.clientLimit,
    Math.min(
      4 * settings.clientLimit,
      Math.floor((settings.concurrency + settings.queueLimit) / 2),
    ),
  );
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
  /** Tickets per address (`ip:` keys) and slots held per client and address. */
  private readonly perAddress = new Map<string, number>();
  private readonly slotsHeld = new Map<string, number>();
  private readonly slotLimit: number;
  private readonly addressLimit: number;

  constructor(private readonly settings: LogoQueueSettings) {
    this.slotLimit = slotShare(settings.concurrency);
    this.addressLimit = addressShare(settings);
  }

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
   * tickets (or its address its share), ServiceBusyError when the line is
   * full. `address` is where the request came from; without auth it is
   * the client itself.
   */
  admit(client: string, address = client): QueueTicket {
    const held = this.perClient.get(client) ?? 0;
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (held >= this.settings.clientLimit || fromAddress >= this.addressLimit) {
      throw new TooManyRequestsError(
        LOGO_RATE_LIMITED_MESSAGE,
        this.settings.busyRetryAfterSeconds,
      );
    }
    let ticket: Ticket;
    if (
      this.active < this.settings.concurrency &&
      this.mayHoldSlot(client, address)
    ) {
      this.active++;
      ticket = new Ticket(this, 'holding', client, address);
      this.countSlot(ticket, 1);
    } else if (this.line.length >= this.settings.queueLimit) {
      throw new ServiceBusyError(
        LOGO_BUSY_MESSAGE,
        this.settings.busyRetryAfterSeconds,
      );
    } else {
      ticket = new Ticket(this, 'waiting', client, address);
      this.line.push(ticket);
    }
    this.perClient.set(client, held + 1);
    this.perAddress.set(address, fromAddress + 1);
    return ticket;
  }

  private mayHoldSlot(client: string, address: string): boolean {
    return (
      (this.slotsHeld.get(`id:${client}`) ?? 0) < this.slotLimit &&
      (this.slotsHeld.get(`ip:${address}`) ?? 0) < this.slotLimit
    );
  }

  private countSlot(ticket: Ticket, by: number): void {
    for (const key of [`id:${ticket.client}`, `ip:${ticket.address}`]) {
      const next = (this.slotsHeld.get(key) ?? 0) + by;
      if (next > 0) this.slotsHeld.set(key, next);
      else this.slotsHeld.delete(key);
    }
  }

  /** @internal Called once by a ticket when it is released. */
  forget(client: string, address: string): void {
    for (const [counts, key] of [
      [this.perClient, client],
      [this.perAddress, address],
    ] as const) {
      const held = (counts.get(key) ?? 1) - 1;
      if (held > 0) counts.set(key, held);
      else counts.delete(key);
    }
  }

  /**
   * @internal Called by a ticket that gives up its slot: free slots go to
   * the oldest waiting tickets whose client and address are below their
   * share of the slots.
   */
  freeSlot(ticket: Ticket): void {
    this.active--;
    this.countSlot(ticket, -1);
    for (
      let i = 0;
      i < this.line.length && this.active < this.settings.concurrency;
    ) {
      const next = this.line[i];
      if (!this.mayHoldSlot(next.client, next.address)) {
        i++;
        continue;
      }
      this.line.splice(i, 1);
      this.active++;
      this.countSlot(next, 1);
      next.grant();
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
    readonly client: string,
    readonly address: string,
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
      this.queue.forget(this.client, this.address);
      this.queue.freeSlot(this);
    } else if (this.state === 'waiting') {
      this.state = 'released';
      this.queue.forget(this.client, this.address);
      this.queue.leaveLine(this);
    }
  }
}
