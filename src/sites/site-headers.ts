/**
 * The headers of every answer of the sites listener. No script may run
 * (the pages are self-contained HTML and CSS, images inline or beside
 * them), so sites sharing the one origin cannot read one another, nor
 * anything of the API's (another origin).
 */
export const SITE_CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': SITE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-site',
};

/** The current address: a publish, rollback or take-down shows within seconds. */
export const CURRENT_CACHE_CONTROL = 'public, max-age=5';
/** A version's address: its files never change. */
export const VERSION_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A 404 or a failure: not kept, so a publish shows at once. */
export const MISS_CACHE_CONTROL = 'no-store';
