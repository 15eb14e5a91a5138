import type { ErrorCode } from '../failures/error-codes';
import { isRetryableStatus } from './retry-policy';

/**
 * The provider's own codes for a prompt its safety system refused: the
 * GPT image models answer 400 with `error.code: "moderation_blocked"`,
 * DALL·E with `content_policy_violation`.
 */
const MODERATION_CODES = new Set([
  'moderation_blocked',
  'content_policy_violation',
]);

/** The code the client sees for an upstream error answer. */
export function upstreamErrorCode(status: number, body: unknown): ErrorCode {
  const code = providerCode(body);
  if (code !== undefined && MODERATION_CODES.has(code)) {
    return 'moderation_blocked';
  }
  if (code === 'model_not_found' || status === 404) return 'model_unavailable';
  return isRetryableStatus(status) ? 'upstream_failed' : 'upstream_refused';
}

/** `{error: {code}}` of an OpenAI-style error answer. */
function providerCode(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
