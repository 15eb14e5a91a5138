import { networkOf } from '../client-network';

/**
 * Who asks for a permit: the proven user (or the address again, without
 * auth) and the address the request came from. Both are counted, so a
 * client that mints identities is still bounded by its address.
 */
export interface Claimant {
  identity: string;
  address: string;
}

/** A request's claimant: its client key (client-key.ts) and its address. */
export function claimantOf(request: {
  clientKey: string;
  address: string;
}): Claimant {
  return { identity: request.clientKey, address: request.address };
}

/** How much of the gate one identity or one address may hold at once. */
export interface Share {
  permits: number;
  waiting: number;
}

export interface FairGateLimits {
  /** Permits in the whole gate. */
  permits: number;
  /** Places in line in the whole gate. */
  waiting: number;
  perIdentity: Share;
  perAddress: Share;
  /**
   * What one network (an IPv4 /24, an IPv6 /64: client-network.ts) may
   * hold, so a client with many neighbouring addresses is bounded too.
   * Unset: networks are not counted.
   */
  perNetwork?: Share;
  /**
   * Permits kept for newcomers: an identity that already holds one gets
   * another only if this many stay free afterwards. Extra permits are then
   * at most `permits - reserve` in all, whatever order they are asked in,
   * so the gate is full only once that many identities hold one each.
   */
  reserve: number;
  /** How long a place in line lasts before it is refused. */
  waitMs: number;
}

/** Why a claimant was turned away; counted by the gate's owner. */
export type Refusal = 'full' | 'share' | 'deadline';

interface Waiter {
  claimant: Claimant;
  grant: () => void;
  drop: () => void;
}

/**
 * Permits shared fairly between clients: no identity and no address holds
 * more than its share of the permits or of the line, and a place in line
 * lasts at most `waitMs`. A freed permit goes to the oldest waiter that
 * may take it, skipping those already at their share, so one client that
 * fills its part of the line cannot delay the others behind it.
 */
export class FairGate {
  private active = 0;
  private readonly line: Waiter[] = [];
  private readonly held = new Map<string, number>();
  private readonly queued = new Map<string, number>();

  constructor(
    private readonly limits: FairGateLimits,
    private readonly onRefused: (reason: Refusal) => void = () => undefined,
  ) {}

  get inUse(): number {
    return this.active;
  }

  get waiting(): number {
    return this.line.length;
  }

  /**
   * Resolves with the permit's release function (safe to call more than
   * once). Rejects with `refusal()` at once when the line (or the
   * claimant's share of it) is full, or once `waitMs` has passed; with
   * another error when `onGone` fires first (the client left).
   */
  async enter(
    claimant: Claimant,
    refusal: () => Error,
    onGone: (leave: () => void) => void = () => undefined,
  ): Promise<() => void> {
    if (this.mayHold(claimant)) {
      this.hold(claimant);
      return this.releaser(claimant);
    }
    const reason = this.lineRefusal(claimant);
    if (reason) {
      this.onRefused(reason);
      throw refusal();
    }
    await new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        clearTimeout(timer);
        const index = this.line.indexOf(waiter);
        if (index < 0) return;
        this.line.splice(index, 1);
        this.count(this.queued, claimant, -1);
        reject(error);
      };
      const waiter: Waiter = {
        claimant,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
        drop: () => leave(new Error('The client left while waiting')),
      };
      const timer = setTimeout(() => {
        this.onRefused('deadline');
        leave(refusal());
      }, this.limits.waitMs);
      this.line.push(waiter);
      this.count(this.queued, claimant, 1);
      onGone(() => waiter.drop());
    });
    return this.releaser(claimant);
  }

  /** Permits `key` (`id:` an identity, `ip:` an address, `net:` a network) holds now. */
  holding(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private mayHold({ identity, address }: Claimant): boolean {
    const { permits, perIdentity, perAddress, reserve } = this.limits;
    if (this.active >= permits) return false;
    const own = this.holding(`id:${identity}`);
    if (own >= perIdentity.permits) return false;
    if (this.holding(`ip:${address}`) >= perAddress.permits) return false;
    if (
      this.limits.perNetwork &&
      this.holding(`net:${networkOf(address)}`) >=
        this.limits.perNetwork.permits
    ) {
      return false;
    }
    // A second permit of the same identity leaves room for a newcomer.
    return own === 0 || permits - this.active - 1 >= reserve;
  }

  private lineRefusal({ identity, address }: Claimant): Refusal | undefined {
    const { waiting, perIdentity, perAddress } = this.limits;
    if (
      (this.queued.get(`id:${identity}`) ?? 0) >= perIdentity.waiting ||
      (this.queued.get(`ip:${address}`) ?? 0) >= perAddress.waiting ||
      (this.limits.perNetwork !== undefined &&
        (this.queued.get(`net:${networkOf(address)}`) ?? 0) >=
          this.limits.perNetwork.waiting)
    ) {
      return 'share';
    }
    return this.line.length >= waiting ? 'full' : undefined;
  }

  private hold(claimant: Claimant): void {
    this.active++;
    this.count(this.held, claimant, 1);
  }

  private count(
    counts: Map<string, number>,
    { identity, address }: Claimant,
    by: number,
  ): void {
    const keys = [`id:${identity}`, `ip:${address}`];
    if (this.limits.perNetwork) keys.push(`net:${networkOf(address)}`);
    for (const key of keys) {
      const next = (counts.get(key) ?? 0) + by;
      if (next > 0) counts.set(key, next);
      else counts.delete(key);
    }
  }

  private releaser(claimant: Claimant): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.count(this.held, claimant, -1);
      this.grantWaiters();
    };
  }

  /** Hands free permits to the oldest waiters that may take one. */
  private grantWaiters(): void {
    for (
      let i = 0;
      i < this.line.length && this.active < this.limits.permits;
    ) {
      const waiter = this.line[i];
      if (!this.mayHold(waiter.claimant)) {
        i++;
        continue;
      }
      this.line.splice(i, 1);
      this.count(this.queued, waiter.claimant, -1);
      this.hold(waiter.claimant);
      waiter.grant();
    }
  }
}
