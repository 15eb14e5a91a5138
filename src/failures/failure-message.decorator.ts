import { SetMetadata } from '@nestjs/common';

export interface FailurePolicy {
  /** The body's `error` text for a failure the route does not explain. */
  message: string;
  /** 'error': {error}; 'success-flag': {success:false, error}. */
  envelope: 'error' | 'success-flag';
  /** Show the message of a PublicError instead of the fixed text. */
  exposePublicErrors: boolean;
  /**
   * A body that is not JSON is the client's mistake (400), as on the
   * routes added beside the contract's; the contract's own answer 500.
   */
  unreadableBodyIsClientError: boolean;
}

export const FAILURE_POLICY = 'workspace:failure-policy';

/**
 * Declares the failure text a route owns, e.g.
 * `@FailureMessage('Failed to create project')`. The global exception filter
 * is the only reader (through RouteContextGuard).
 */
export const FailureMessage = (
  message: string,
  options: Partial<Omit<FailurePolicy, 'message'>> = {},
) =>
  SetMetadata<string, FailurePolicy>(FAILURE_POLICY, {
    message,
    envelope: options.envelope ?? 'error',
    exposePublicErrors: options.exposePublicErrors ?? false,
    unreadableBodyIsClientError: options.unreadableBodyIsClientError ?? false,
  });
