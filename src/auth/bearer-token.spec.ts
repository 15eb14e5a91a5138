import type { Request } from 'express';
import { AuthFailure } from '../failures/auth-failure.error';
import { bearerTokenOf } from './bearer-token';

const requestWith = (...values: string[]) =>
  ({
    headers: values.length ? { authorization: values[0] } : {},
    rawHeaders: values.flatMap((value) => ['Authorization', value]),
  }) as unknown as Request;

const refusal = (request: Request) => {
  try {
    bearerTokenOf(request);
  } catch (error) {
    return error as AuthFailure;
  }
  throw new Error('accepted');
};

describe('the bearer token of a request', () => {
  it('is the compact JWS after the Bearer scheme, whatever the scheme’s case', () => {
    expect(bearerTokenOf(requestWith('Bearer abc.de-_.QQ'))).toBe(
      'abc.de-_.QQ',
    );
    expect(bearerTokenOf(requestWith('bEaReR abc.abc.QQ'))).toBe('abc.abc.QQ');
  });

  it.each([
    ['padding', 'Bearer abc.de-_.QQ=='],
    ['a + of base64', 'Bearer abc.de+_.QQ'],
    ['a / of base64', 'Bearer abc.de/_.QQ'],
    ['unused bits set in a last character', 'Bearer abc.de-_.QR'],
    ['a segment length no encoder writes', 'Bearer abc.de-_.QQQQQ'],
    ['two segments', 'Bearer abc.def'],
    ['a token over 8 KB', `Bearer abc.abc.${'c'.repeat(8 * 1024)}`],
  ])(
    'with %s (another spelling of a token, or none): 401 invalid_token',
    (_label, header) => {
      expect(refusal(requestWith(header)).headers['WWW-Authenticate']).toBe(
        'Bearer realm="workspace-api", error="invalid_token"',
      );
    },
  );

  it('without a header: 401 with a bare challenge', () => {
    const failure = refusal(requestWith());
    expect(failure.status).toBe(401);
    expect(failure.headers['WWW-Authenticate']).toBe(
      'Bearer realm="workspace-api"',
    );
  });

  it.each(['Basic YWxpY2U6c2VjcmV0', 'Bearer', 'Bearer a b', 'Bearer é'])(
    '%j: 401 invalid_request',
    (header) => {
      expect(refusal(requestWith(header)).headers['WWW-Authenticate']).toBe(
        'Bearer realm="workspace-api", error="invalid_request"',
      );
    },
  );

  it('sent twice: 401 invalid_request, even when the first is well formed', () => {
    expect(
      refusal(requestWith('Bearer a', 'Bearer b')).headers['WWW-Authenticate'],
    ).toContain('invalid_request');
  });
});
