import {
  type Claimant,
  FairGate,
  type Refusal,
} from '../../common/concurrency/fair-gate';
import { ServiceBusyError } from '../../failures/retry-later.error';

/** Large bodies read, parsed and explained at once in this process. */
export const LARGE_BODY_PERMITS = 4;

/** Requests waiting for a permit; one more is refused with 503. */
export const LARGE_BODY_QUEUE_LIMIT = 64;

/**
 * One identity reads one large body at a time and has two more waiting;
 * one address (which may carry many identities), and one network of
 * addresses, half of the permits and a quarter (a network: half) of the line. Nobody's browser sends more at once: a flood from
 * one client fills its own share and is refused, the others are served.
 */
export const LARGE_BODY_IDENTITY_SHARE = { permits: 1, waiting: 2 };
export const LARGE_BODY_ADDRESS_WAITING = 16;
/**
 * A network of addresses (an IPv4 /24, an IPv6 /64) holds no more than
 * one address may, and twice its places in line: neighbouring addresses
 * of one client cannot take every permit from the rest.
 */
export const LARGE_BODY_NETWORK_WAITING = 32;

/** How long a large body waits for its turn before 503. */
export const LARGE_BODY_WAIT_MS = 3_000;

export const LARGE_BODY_BUSY_MESSAGE =
  'Too many large request bodies are being read; try again shortly';

export interface LargeBodyGateSettings {
  permits: number;
  queueLimit: number;
  waitMs: number;
}

/**
 * Bounds the work large bodies cost this process in total, and shares it
 * between clients: a permit is taken before the first byte is read, so a
 * request waiting for one holds a socket and nothing else (its bytes stay
 * in the kernel, and TCP slows the sender down). Memory for bodies is then
 * at most `permits` times the body limit, plus the parser's values. A
 * place in line lasts `waitMs`, and no client holds more than its share
 * (fair-gate.ts), so a client that opens many sockets and stalls them
 * neither fills the line nor keeps others waiting for long.
 */
export class LargeBodyGate {
  private readonly gate: FairGate;

  constructor(
    settings: Partial<LargeBodyGateSettings> = {},
    onRefused?: (reason: Refusal) => void,
  ) {
    const permits = settings.permits ?? LARGE_BODY_PERMITS;
    const addressPermits = Math.max(1, Math.floor(permits / 2));
    this.gate = new FairGate(
      {
        permits,
        waiting: settings.queueLimit ?? LARGE_BODY_QUEUE_LIMIT,
        perIdentity: LARGE_BODY_IDENTITY_SHARE,
        perAddress: {
          permits: addressPermits,
          waiting: LARGE_BODY_ADDRESS_WAITING,
        },
        perNetwork: {
          permits: addressPermits,
          waiting: LARGE_BODY_NETWORK_WAITING,
        },
        reserve: 0,
        waitMs: settings.waitMs ?? LARGE_BODY_WAIT_MS,
      },
      onRefused,
    );
  }

  get inUse(): number {
    return this.gate.inUse;
  }

  get waiting(): number {
    return this.gate.waiting;
  }

  /**
   * Resolves with the permit's release function once one is free; throws
   * ServiceBusyError (503, Retry-After: 1) at once when the line or the
   * client's share of it is full, or when no permit came within the wait.
   * If `onGone` fires first (the client left), the place in line is given up.
   */
  enter(
    claimant: Claimant,
    onGone: (leave: () => void) => void,
  ): Promise<() => void> {
    return this.gate.enter(
      claimant,
      () => new ServiceBusyError(LARGE_BODY_BUSY_MESSAGE, 1),
      onGone,
    );
  }
}
