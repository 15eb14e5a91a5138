import fc from 'fast-check';
import type { AssetOperation } from '../support/answer-contract';
import type { FuzzRequest, IdChoice } from './fuzz-requests';

/**
 * Generated requests for the kept-logo routes: odd logo bodies for POST
 * /api/projects/{id}/logos, odd project and asset ids, DELETE with odd
 * If-Match values, and for the content route every way to spoil a signed
 * URL's query: garbage and huge expiries and signatures, repeated and
 * bracketed parameters, a real signature with a second expiry.
 */

/** Headers of one request, as the generators build them. */
type Headers = Record<string, string | string[]>;

/** The pieces of the project routes' requests the asset routes reuse. */
export interface RequestParts {
  id: fc.Arbitrary<IdChoice>;
  query: fc.Arbitrary<string>;
  /** A logo request's body (no projectId), valid or spoiled. */
  logoBody: fc.Arbitrary<Buffer>;
  contentType: fc.Arbitrary<Headers>;
  idempotencyKey: fc.Arbitrary<Headers>;
  ifMatch: fc.Arbitrary<Headers>;
  ifNoneMatch: fc.Arbitrary<Headers>;
  /** Unicode, control characters, SQL-looking and oversized text. */
  oddText: fc.Arbitrary<string>;
  encode: (text: string) => string;
}

/** Where the asset's id goes in a path, filled in when the request is sent. */
export const ASSET_ID = '{assetId}';

/**
 * Stands for the query of a url the service made for the asset's project
 * (empty when urls are not signed), filled in when the request is sent.
 */
export const MINTED_QUERY = '{minted}';

const SIGNATURE_ALPHABET =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');

function expiresValue(): fc.Arbitrary<string> {
  const nowSeconds = Math.floor(Date.now() / 1000);
  return fc.oneof(
    fc.integer({ min: -10, max: 10 }).map(String),
    // Around now and an hour ahead: expired, valid-looking, too far out.
    fc
      .integer({ min: nowSeconds - 7_200, max: nowSeconds + 7_200 })
      .map(String),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1e10',
      '0x7fffffff',
      'NaN',
      'Infinity',
      '1795000800.5',
      ' 1795000800',
      '01795000800',
      '9'.repeat(12),
      '9'.repeat(13),
      '9'.repeat(400),
      String(Number.MAX_SAFE_INTEGER + 2),
    ),
  );
}

function signatureValue(parts: RequestParts): fc.Arbitrary<string> {
  return fc.oneof(
    // The right alphabet, around the right length (43).
    fc
      .array(fc.constantFrom(...SIGNATURE_ALPHABET), {
        minLength: 41,
        maxLength: 45,
      })
      .map((letters) => letters.join('')),
    fc.constantFrom(
      '',
      '='.repeat(43),
      `${'A'.repeat(42)}=`,
      'a'.repeat(9_000),
    ),
    parts.oddText,
  );
}

/** A content url's query: none, the real one, or a spoiled one. */
function contentQuery(parts: RequestParts): fc.Arbitrary<string> {
  const e = parts.encode;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: fc.constant(`?${MINTED_QUERY}`) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(expiresValue(), signatureValue(parts))
        .map(
          ([at, signature]) => `?expires=${e(at)}&signature=${e(signature)}`,
        ),
    },
    {
      // Repeated: Express reads these as arrays.
      weight: 2,
      arbitrary: fc.oneof(
        fc
          .tuple(expiresValue(), expiresValue())
          .map(([a, b]) => `?expires=${e(a)}&expires=${e(b)}`),
        fc.constant(`?${MINTED_QUERY}&${MINTED_QUERY}`),
        expiresValue().map((at) => `?${MINTED_QUERY}&expires=${e(at)}`),
        signatureValue(parts).map((s) => `?${MINTED_QUERY}&signature=${e(s)}`),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '?expires[]=1&signature[]=x',
        '?expires[a]=1&signature[b]=2',
        '?expires[__proto__]=1',
        '?signature=&expires=',
        '?expires&signature',
        '?expires=%&signature=%zz',
        '?expires=1795000800&signature=%E0%A4%A',
      ),
    },
    { weight: 2, arbitrary: parts.query },
  );
}

export function assetRequestArbitrary(
  operation: AssetOperation,
  parts: RequestParts,
): fc.Arbitrary<FuzzRequest> {
  const assetPath = `/api/projects/{id}/assets/${ASSET_ID}`;
  switch (operation) {
    case 'keepLogo':
      return fc
        .tuple(
          parts.id,
          parts.logoBody,
          parts.contentType,
          parts.query,
          parts.idempotencyKey,
        )
        .map(([idChoice, body, type, q, key]) => ({
          operation,
          method: 'POST',
          path: `/api/projects/{id}/logos${q}`,
          idChoice,
          headers: { ...type, ...key },
          body,
        }));
    case 'getAsset':
      return fc
        .tuple(parts.id, parts.id, parts.query)
        .map(([idChoice, assetChoice, q]) => ({
          operation,
          method: 'GET',
          path: `${assetPath}${q}`,
          idChoice,
          assetChoice,
          headers: {},
        }));
    case 'deleteAsset':
      return fc
        .tuple(parts.id, parts.id, parts.query, parts.ifMatch)
        .map(([idChoice, assetChoice, q, ifMatch]) => ({
          operation,
          method: 'DELETE',
          path: `${assetPath}${q}`,
          idChoice,
          assetChoice,
          headers: ifMatch,
        }));
    case 'assetContent':
      return fc
        .tuple(parts.id, parts.id, contentQuery(parts), parts.ifNoneMatch)
        .map(([idChoice, assetChoice, q, ifNoneMatch]) => ({
          operation,
          method: 'GET',
          path: `${assetPath}/content${q}`,
          idChoice,
          assetChoice,
          headers: ifNoneMatch,
        }));
  }
}
