import type { Request } from 'express';
import { InputValidationException } from '../../failures/input-validation.error';
import { absoluteUrl, publicBaseUrl } from './public-base-url';

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

describe('absoluteUrl (Location headers)', () => {
  it('puts a path of the service on the base, its path prefix included', () => {
    expect(absoluteUrl('https://api.example.com', '/api/projects/p1')).toBe(
      'https://api.example.com/api/projects/p1',
    );
    expect(
      absoluteUrl('https://api.example.com/workspace', '/api/projects/p1'),
    ).toBe('https://api.example.com/workspace/api/projects/p1');
  });

  it('keeps a path relative when no origin can be told (an empty base)', () => {
    expect(absoluteUrl('', '/api/projects/p1')).toBe('/api/projects/p1');
  });

  it.each(['https://elsewhere.example/x', '//elsewhere.example/x'])(
    'leaves %s as it is: only a path of the service is put on the base',
    (url) => {
      expect(absoluteUrl('https://api.example.com', url)).toBe(url);
    },
  );
});
