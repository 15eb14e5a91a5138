import type { Response } from 'express';
import type { Caller } from '../common/http/request-context';
import { addRequestLogFields } from '../logging/request-log';
import type { LogoCaller } from './logo.service';

/**
 * Who asks for a logo, as the logo routes tell LogoService: the rate limit
 * counts per proven user, or per address without one; the tokens the
 * upstream reports go on the request's log line.
 */
export function logoCallerOf(request: {
  caller: Caller | undefined;
  clientIp: string;
  signal: AbortSignal;
  baseUrl: () => string;
  response: Response;
}): LogoCaller {
  return {
    client: request.caller ? `user:${request.caller.userId}` : request.clientIp,
    address: request.clientIp,
    signal: request.signal,
    baseUrl: request.baseUrl,
    onUsage: (usage) =>
      addRequestLogFields(request.response, {
        imageInputTokens: usage.inputTokens,
        imageOutputTokens: usage.outputTokens,
      }),
  };
}
