import type { UsageScope } from '../usage/usage.service';

/**
 * What one paid call to the image model may spend and whom it counts
 * against: the client key (rate limit, line share, spend) and the address
 * (line share), the signal that cancels it (a client that left, a task
 * cancelled), whose spend it is, and where the tokens it reports are
 * logged. The deadline is IMAGE_API_DEADLINE_MS from the call's place in
 * line. A request hands its CallContext, which has all of these; a task
 * makes its own, so the worker never borrows a request's shape.
 */
export interface UpstreamBudget {
  readonly clientKey: string;
  readonly address: string;
  readonly signal: AbortSignal;
  /**
   * Whose spend the call is: a task's project and task. Without it (the
   * logo routes) the client key alone, no project.
   */
  readonly usage?: UsageScope;
  /** The request's log line, when there is one (none for a task). */
  addLogFields?(fields: Record<string, unknown>): void;
}
