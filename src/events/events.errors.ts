import type { ErrorCode } from '../failures/error-codes';
import {
  ServiceBusyError,
  TooManyRequestsError,
} from '../failures/retry-later.error';

/** What a client over a stream limit is told to wait. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** 429: this client has EVENTS_CLIENT_LIMIT streams open already. */
export class TooManyStreamsError extends TooManyRequestsError {
  override readonly code: ErrorCode = 'too_many_streams';

  constructor(limit: number) {
    super(
      `This client already has ${limit} live-change streams open, the most allowed; close one first`,
      STREAM_RETRY_AFTER_SECONDS,
    );
  }
}

/** 503: this instance holds EVENTS_INSTANCE_LIMIT streams, or is stopping. */
export class StreamsFullError extends ServiceBusyError {
  constructor(why: 'full' | 'stopping') {
    super(
      why === 'full'
        ? 'This instance has no room for another live-change stream; retry (another replica may have room)'
        : 'This instance is shutting down; connect again',
      why === 'full' ? STREAM_RETRY_AFTER_SECONDS : 1,
    );
  }
}

/**
 * 429: this address or its network (/24, /64) holds as many unscoped
 * streams without a proven caller as EVENTS_UNSCOPED_ADDRESS_LIMIT or
 * EVENTS_UNSCOPED_NETWORK_LIMIT allow.
 */
export class TooManyUnscopedStreamsError extends TooManyRequestsError {
  override readonly code: ErrorCode = 'too_many_streams';

  constructor() {
    super(
      'This address or its network already has the most unscoped live-change streams allowed; name a userId or a project, or close one first',
      STREAM_RETRY_AFTER_SECONDS,
    );
  }
}
