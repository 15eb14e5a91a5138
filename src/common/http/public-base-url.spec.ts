import type { Request } from 'express';
import { InputValidationException } from '../../failures/input-validation.error';
import { publicBaseUrl } from './public-base-url';

const requestWith = (host: string | undefined, protocol = 'http') =>
  ({ host, protocol }) as unknown as Request;

describe('publicBaseUrl', () => {
  it('is PUBLIC_BASE_URL when set, whatever the request says', () => {
    expect(
      publicBaseUrl('https://api.example.com', requestWith('evil.example')),
    ).toBe('https://api.example.com');
  });

  it.each([
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['api.example.com', 'http://api.example.com'],
    ['[::1]:8080', 'http://[::1]:8080'],
  ])('is the request scheme and Host %s otherwise', (host, expected) => {
    expect(publicBaseUrl(undefined, requestWith(host))).toBe(expected);
  });

  it.each(['evil.example/path', 'a b', 'x@evil.example', '', 'host:port'])(
    'refuses a Host that is not a host (%j) as invalid input (400)',
    (host) => {
      expect(() => publicBaseUrl(undefined, requestWith(host))).toThrow(
        InputValidationException,
      );
    },
  );
});
