/**
 * Query parameters that carry a credential in a URL: a stream ticket
 * (`ticket`), a signed asset URL's `signature`, and the names under which
 * clients and proxies pass tokens and keys. Their values never reach a log
 * line: a URL that holds one is logged with `[redacted]` in its place.
 */
const SECRET_PARAMS = new Set([
  'ticket',
  'signature',
  'sig',
  'token',
  'access_token',
  'id_token',
  'refresh_token',
  'code',
  'api_key',
  'apikey',
  'key',
  'client_secret',
  'password',
]);

const REDACTED = '[redacted]';

/** One `name=value` pair of a query, with how it is written. */
const PAIR = /([^&=]*)(=?)([^&]*)/g;

/**
 * The URL with the value of every credential parameter replaced by
 * `[redacted]`, matched by name whatever its case or percent-encoding;
 * the rest of the URL stays as sent.
 */
export function redactedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const fragmentAt = url.indexOf('#', queryAt);
  const end = fragmentAt < 0 ? url.length : fragmentAt;
  const query = url
    .slice(queryAt + 1, end)
    .replace(PAIR, (pair: string, name: string, equals: string) =>
      equals && SECRET_PARAMS.has(paramName(name))
        ? `${name}=${REDACTED}`
        : pair,
    );
  return `${url.slice(0, queryAt + 1)}${query}${url.slice(end)}`;
}

function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    // A malformed escape: compared as written.
    return raw.toLowerCase();
  }
}
