import { ServiceBusyError } from '../../failures/retry-later.error';

/**
 * Bodies over this many bytes (or of unknown length) are read one gate
 * permit at a time; below it a body costs a few milliseconds and a few
 * kilobytes, and is read at once.
 */
export const SMALL_BODY_MAX_BYTES = 64 * 1024;

/** Large bodies read, parsed and explained at once in this process. */
export const LARGE_BODY_PERMITS = 1;

/** Requests waiting for a permit; one more is refused with 503. */
export const LARGE_BODY_QUEUE_LIMIT = 64;

export const LARGE_BODY_BUSY_MESSAGE =
  'Too many large request bodies are being read; try again shortly';

/**
 * Bounds the work large bodies cost this process in total, whoever sends
 * them: a permit is taken before the first byte is read, so a request
 * waiting for one holds a socket and nothing else (its bytes stay in the
 * kernel, and TCP slows the sender down). Memory for bodies is then at most
 * LARGE_BODY_PERMITS times the body limit, plus the parser's values.
 */
export class LargeBodyGate {
  private active = 0;
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly permits = LARGE_BODY_PERMITS,
    private readonly queueLimit = LARGE_BODY_QUEUE_LIMIT,
  ) {}

  get inUse(): number {
    return this.active;
  }

  get waiting(): number {
    return this.line.length;
  }

  /**
   * Resolves with the permit's release function once one is free; throws
   * ServiceBusyError at once when the line is full. If `gone` fires first
   * (the client left), the place in line is given up.
   */
  async enter(onGone: (leave: () => void) => void): Promise<() => void> {
    if (this.active < this.permits) {
      this.active++;
      return this.releaser();
    }
    if (this.line.length >= this.queueLimit) {
      throw new ServiceBusyError(LARGE_BODY_BUSY_MESSAGE, 1);
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => resolve();
      this.line.push(grant);
      onGone(() => {
        const index = this.line.indexOf(grant);
        if (index < 0) return;
        this.line.splice(index, 1);
        reject(new Error('The client left while waiting to send its body'));
      });
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.line.shift();
      // The permit passes straight to the next in line.
      if (next) next();
      else this.active--;
    };
  }
}
