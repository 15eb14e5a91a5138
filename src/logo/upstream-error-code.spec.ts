import { upstreamErrorCode } from './upstream-error-code';

const openAiError = (code: string | null) => ({
  error: { message: 'refused', type: 'invalid_request_error', code },
});

describe('upstreamErrorCode', () => {
  it('a moderation refusal is moderation_blocked, whatever the status', () => {
    expect(upstreamErrorCode(400, openAiError('moderation_blocked'))).toBe(
      'moderation_blocked',
    );
    expect(
      upstreamErrorCode(400, openAiError('content_policy_violation')),
    ).toBe('moderation_blocked');
  });

  it('an unknown model is model_unavailable', () => {
    expect(upstreamErrorCode(404, openAiError(null))).toBe('model_unavailable');
    expect(upstreamErrorCode(400, openAiError('model_not_found'))).toBe(
      'model_unavailable',
    );
  });

  it('another 4xx is a refusal, 429 and 5xx an outage', () => {
    expect(upstreamErrorCode(400, openAiError(null))).toBe('upstream_refused');
    expect(upstreamErrorCode(401, 'not json')).toBe('upstream_refused');
    expect(upstreamErrorCode(429, openAiError('rate_limit_exceeded'))).toBe(
      'upstream_failed',
    );
    expect(upstreamErrorCode(503, undefined)).toBe('upstream_failed');
  });
});
