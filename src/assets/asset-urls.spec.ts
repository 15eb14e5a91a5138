import type { AuthConfig } from '../auth/auth.config';
import type { AssetsConfig } from './assets.config';
import { AssetUrls } from './asset-urls';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const OTHER = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e99';
const BASE = 'https://api.example.com';
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

const urlsWith = (auth: 'none' | 'oidc', ttl = 3600, key = 'k'.repeat(32)) =>
  new AssetUrls(
    { mode: auth } as AuthConfig,
    {
      urlTtlSeconds: ttl,
      urlSigningKey: key,
    } as AssetsConfig,
  );

const queryOf = (after: string) => {
  const params = new URLSearchParams(after.split('?')[1] ?? '');
  return {
    expires: params.get('expires') ?? undefined,
    signature: params.get('signature') ?? undefined,
  };
};

describe('AssetUrls', () => {
  it('without authentication makes a stable URL under the base and lets every request read', () => {
    const urls = urlsWith('none');
    const parts = urls.partsFor(PROJECT, BASE, NOW);
    expect(parts).toEqual({
      before: `${BASE}/api/projects/${PROJECT}/assets/`,
      after: '/content',
    });
    expect(urls.partsFor(PROJECT, BASE, NOW + 86_400_000)).toEqual(parts);
    expect(urls.allows(PROJECT, {}, NOW)).toBe(true);
  });

  it('with AUTH_MODE=oidc signs an expiry at most ASSET_URL_TTL_S away, the same for every answer within a sixth of it', () => {
    const urls = urlsWith('oidc');
    const first = urls.partsFor(PROJECT, BASE, NOW);
    const nowSeconds = NOW / 1000;
    expect(first.expires).toBeLessThanOrEqual(nowSeconds + 3600);
    expect(first.expires).toBeGreaterThan(nowSeconds + 3600 - 600);
    expect(first.after).toMatch(
      /^\/content\?expires=\d+&signature=[A-Za-z0-9_-]{43}$/,
    );
    const later = urls.partsFor(PROJECT, BASE, NOW + 1000);
    expect(later.after).toBe(first.after);
  });

  it('accepts its own signature of the project until the expiry, and nothing else', () => {
    const urls = urlsWith('oidc');
    const query = queryOf(urls.partsFor(PROJECT, BASE, NOW).after);
    expect(urls.allows(PROJECT, query, NOW)).toBe(true);
    // Another project, a later expiry, a tampered signature, none at all.
    expect(urls.allows(OTHER, query, NOW)).toBe(false);
    expect(
      urls.allows(
        PROJECT,
        { ...query, expires: String(Number(query.expires) + 1) },
        NOW,
      ),
    ).toBe(false);
    const flipped =
      (query.signature![0] === 'A' ? 'B' : 'A') + query.signature!.slice(1);
    expect(urls.allows(PROJECT, { ...query, signature: flipped }, NOW)).toBe(
      false,
    );
    expect(urls.allows(PROJECT, {}, NOW)).toBe(false);
    expect(urls.allows(PROJECT, { expires: query.expires }, NOW)).toBe(false);
    // A leaked URL stops working within the hour.
    expect(urls.allows(PROJECT, query, NOW + 3600 * 1000)).toBe(false);
  });

  it('refuses a URL another key signed (a rotated key ends every URL made with the old one)', () => {
    const query = queryOf(urlsWith('oidc').partsFor(PROJECT, BASE, NOW).after);
    expect(
      urlsWith('oidc', 3600, 'z'.repeat(32)).allows(PROJECT, query, NOW),
    ).toBe(false);
  });

  it('refuses an expiry further out than any URL it makes', () => {
    const long = urlsWith('oidc', 3600);
    const query = queryOf(long.partsFor(PROJECT, BASE, NOW).after);
    // The same key with a shorter lifetime: the old URL is too far out.
    expect(urlsWith('oidc', 60).allows(PROJECT, query, NOW)).toBe(false);
  });

  it.each([
    { expires: '1e12', signature: 'x'.repeat(43) },
    { expires: '-5', signature: 'x'.repeat(43) },
    { expires: '99999999999999999999', signature: 'x'.repeat(43) },
    { expires: '1795000000', signature: 'x'.repeat(10_000) },
  ])('refuses a malformed query %#', (query) => {
    expect(urlsWith('oidc').allows(PROJECT, query, NOW)).toBe(false);
  });

  it('tells how long a signed URL still works, for Cache-Control', () => {
    const urls = urlsWith('oidc');
    const query = queryOf(urls.partsFor(PROJECT, BASE, NOW).after);
    expect(urls.secondsLeft(query, NOW)).toBe(
      Number(query.expires) - NOW / 1000,
    );
    expect(urlsWith('none').secondsLeft({}, NOW)).toBeUndefined();
  });
});
