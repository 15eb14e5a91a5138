import type { ErrorCode } from '../failures/error-codes';
import { ServiceBusyError } from '../failures/retry-later.error';

/** 503: the provider's keys could not be fetched and none are cached. */
export class KeysUnavailableError extends ServiceBusyError {
  override readonly code: ErrorCode = 'auth_unavailable';
  /** For the log line: why the keys could not be had. */
  readonly logDetail: string;

  constructor(failure: unknown) {
    super('Authentication is temporarily unavailable', 5);
    const code =
      (failure as { code?: unknown; cause?: { code?: unknown } })?.cause
        ?.code ?? (failure as { code?: unknown })?.code;
    this.logDetail = `${failure instanceof Error ? failure.message : String(failure)}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
}
