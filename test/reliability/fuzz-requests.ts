import fc from 'fast-check';
import { isAssetOperation, type Operation } from '../support/answer-contract';
import { assetRequestArbitrary } from './fuzz-asset-requests';

/**
 * Generated HTTP requests for every operation: wrong JSON types, missing and
 * extra fields, empty and huge strings, unicode and control characters,
 * deep nesting, arrays where objects belong, "__proto__"/"constructor"/
 * "prototype" keys, SQL-looking text in ids, query parameters and bodies,
 * duplicated query parameters and keys, unreadable bodies and wrong content
 * types.
 */

/** A JSON value whose objects are key/value pairs, so keys may repeat and be "__proto__". */
export type JsonTree =
  | null
  | boolean
  | number
  | string
  | JsonTree[]
  | { pairs: Array<[string, JsonTree]> }
  | { raw: string };

export function serialize(tree: JsonTree): string {
  if (tree === null || typeof tree !== 'object') {
    // JSON has no NaN or Infinity: such numbers go as the text a careless
    // client would write, which is not JSON (an unreadable body).
    return typeof tree === 'number' && !Number.isFinite(tree)
      ? String(tree)
      : JSON.stringify(tree);
  }
  if (Array.isArray(tree)) return `[${tree.map(serialize).join(',')}]`;
  if ('raw' in tree) return tree.raw;
  return `{${tree.pairs
    .map(([key, value]) => `${JSON.stringify(key)}:${serialize(value)}`)
    .join(',')}}`;
}

const SQL_LIKE = [
  "' OR '1'='1",
  '1; DROP TABLE projects; --',
  "'; DELETE FROM projects WHERE '1'='1",
  '" OR ""="',
  "%' UNION SELECT id, name FROM projects --",
  'Robert\'); DROP TABLE "sections";--',
  '1) OR (1=1',
  '$1; SELECT pg_sleep(10)',
  'NULL',
  "\\'; --",
];

const ODD_TEXT = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\u202etxet',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  '💥🔥👩‍👩‍👧‍👦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  'null',
  'undefined',
  'true',
  '../../../etc/passwd',
  '%00',
  '%E0%A4%A',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '{{7*7}}',
  '-1',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
];

export interface FuzzSettings {
  /** The app's BODY_LIMIT in bytes; huge strings go up to a little past it. */
  bodyLimit: number;
}

export function textArbitrary(settings: FuzzSettings): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 3, arbitrary: fc.constantFrom(...SQL_LIKE, ...ODD_TEXT) },
    {
      // Around the documented limits (100 and 500 characters).
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 95, max: 505 }),
          fc.constantFrom('x', 'é', '😀'),
        )
        .map(([n, c]) => c.repeat(n)),
    },
    {
      // Huge strings, up to a little past the body limit (→ 413).
      weight: 1,
      arbitrary: fc
        .integer({
          min: 1_000,
          max: Math.max(1_000, Math.ceil(settings.bodyLimit * 1.1)),
        })
        .map((n) => 'y'.repeat(n)),
    },
  );
}

const POLLUTION: JsonTree = {
  pairs: [
    ['polluted', 'yes'],
    ['isAdmin', true],
  ],
};

const pollutionPairs = fc.constantFrom<Array<[string, JsonTree]>>(
  [['__proto__', POLLUTION]],
  [['constructor', { pairs: [['prototype', POLLUTION]] }]],
  [['prototype', POLLUTION]],
  [['__proto__', { pairs: [['__proto__', POLLUTION]] }]],
  [['constructor', POLLUTION]],
);

/** JSON nested `depth` levels deep, as arrays or objects. */
const deepNesting = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, asArrays]): JsonTree => ({
    raw: asArrays
      ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  }));

export function jsonArbitrary(settings: FuzzSettings): fc.Arbitrary<JsonTree> {
  const text = textArbitrary(settings);
  const { tree } = fc.letrec<{ tree: JsonTree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.oneof(
        fc.integer(),
        fc.double(),
        fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 1e-320),
      ),
      text,
      fc.array(tie('tree'), { maxLength: 4 }),
      fc
        .array(
          fc.tuple(
            fc.oneof(
              text,
              fc.constantFrom('__proto__', 'constructor', 'prototype'),
            ),
            tie('tree'),
          ),
          {
            maxLength: 4,
          },
        )
        .map((pairs): JsonTree => ({ pairs })),
      pollutionPairs.map((pairs): JsonTree => ({ pairs })),
      deepNesting,
    ),
  }));
  return tree;
}

/** Valid values per field, so that many generated bodies pass validation. */
function fieldArbitraries(): Record<string, fc.Arbitrary<JsonTree>> {
  const word = fc.string({ minLength: 1, maxLength: 40 });
  return {
    name: fc.string({ minLength: 1, maxLength: 100 }),
    description: fc.oneof(fc.string({ maxLength: 500 }), fc.constant(null)),
    userId: fc.oneof(word, fc.constantFrom(...SQL_LIKE)),
    projectId: word,
    companyName: fc.string({ minLength: 1, maxLength: 100 }),
    style: fc.constantFrom(
      'modern',
      'minimalist',
      'vintage',
      'playful',
      'professional',
      'abstract',
      'geometric',
      'organic',
    ),
    colors: fc.array(word, { minLength: 1, maxLength: 5 }),
    industry: word,
    mood: fc.array(word, { maxLength: 4 }),
  };
}

const PROJECT_FIELDS = ['name', 'description', 'userId'];
const LOGO_FIELDS = [
  'projectId',
  'companyName',
  'style',
  'colors',
  'description',
  'industry',
  'mood',
];
const OTHER_KEYS = [
  'id',
  'createdAt',
  'updatedAt',
  'sections',
  'agents',
  'tasks',
  'assets',
  '_count',
];

/** An object body with the operation's fields, each valid, wrong or absent. */
function objectBody(
  fields: string[],
  settings: FuzzSettings,
): fc.Arbitrary<JsonTree> {
  const valid = fieldArbitraries();
  const anything = jsonArbitrary(settings);
  const field = (key: string) =>
    fc
      .tuple(
        fc.oneof(
          { weight: 4, arbitrary: fc.constant('valid') },
          { weight: 2, arbitrary: fc.constant('wrong') },
          { weight: 1, arbitrary: fc.constant('absent') },
        ),
        valid[key],
        anything,
      )
      .map(([kind, good, bad]): Array<[string, JsonTree]> =>
        kind === 'absent' ? [] : [[key, kind === 'valid' ? good : bad]],
      );
  const extra = fc.array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...OTHER_KEYS, ...fields), anything),
      fc.tuple(textArbitrary(settings), anything),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(
      fc.tuple(...fields.map(field)),
      extra,
      fc.option(pollutionPairs, { freq: 4 }),
    )
    .map(([known, more, pollution]): JsonTree => ({
      pairs: [...known.flat(), ...more, ...(pollution ?? [])],
    }));
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';;;',
];

const headerSafe = fc
  .string({ maxLength: 40 })
  .map((s) => s.replace(/[^\x20-\x7e]/g, ''));

const contentType = fc.option(
  fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerSafe),
  { freq: 6 },
);

/** A body as bytes: usually the JSON text, sometimes broken in some way. */
function bodyBytes(
  tree: fc.Arbitrary<JsonTree>,
  settings: FuzzSettings,
): fc.Arbitrary<Buffer> {
  const json = tree.map(serialize);
  return fc.oneof(
    { weight: 12, arbitrary: json.map((t) => Buffer.from(t, 'utf8')) },
    {
      weight: 2,
      arbitrary: jsonArbitrary(settings).map((t) => Buffer.from(serialize(t))),
    },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.nat())
        .map(([t, cut]) =>
          Buffer.from(t.slice(0, cut % Math.max(1, t.length))),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
    },
    { weight: 1, arbitrary: json.map((t) => Buffer.from(t, 'utf16le')) },
    { weight: 1, arbitrary: json.map((t) => Buffer.from(`\ufeff${t}`)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          'name=a&userId=b',
          '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\na\r\n--xyz--',
          '<project><name>a</name></project>',
          'null',
          '"text"',
          '5',
          '[]',
          '{',
          '{"name": "a", "userId": "b"',
        )
        .map((t) => Buffer.from(t)),
    },
  );
}

const QUERY_KEYS = [
  'userId',
  'limit',
  'cursor',
  '__proto__',
  'constructor',
  '__proto__[polluted]',
  'constructor[prototype][polluted]',
  'userId[]',
  'userId[__proto__]',
];

/** Query pairs, repeated keys included; a few left with raw bad escapes. */
function queryArbitrary(settings: FuzzSettings): fc.Arbitrary<string> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 2, arbitrary: fc.integer({ min: -10, max: 1000 }).map(String) },
    { weight: 2, arbitrary: fc.constantFrom(...SQL_LIKE, ...ODD_TEXT) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.date({ noInvalidDate: true }), fc.uuid())
        .map(([d, id]) =>
          Buffer.from(JSON.stringify([d.toISOString(), id])).toString(
            'base64url',
          ),
        ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 100, max: 6_000 }).map((n) => 'q'.repeat(n)),
    },
  );
  const encoded = fc
    .tuple(
      fc.oneof(
        fc.constantFrom(...QUERY_KEYS),
        textArbitrary({ bodyLimit: 40 }),
      ),
      value,
    )
    .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`);
  const raw = fc.constantFrom(
    'userId=%',
    'limit=%zz',
    'cursor=%E0%A4%A',
    'userId',
    '&&',
    '=',
    'limit=1&limit=2',
    'userId=a&userId=b',
    // Cursors the service never issues: dates out of range, padding.
    ...[
      ['-271821-04-20T00:00:00.000Z', '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'],
      ['+275760-09-13T00:00:00.000Z', '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'],
      ['1969-12-31T23:59:59.999Z', '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'],
    ].map(
      (cursor) =>
        `limit=2&cursor=${Buffer.from(JSON.stringify(cursor)).toString('base64url')}`,
    ),
    `limit=2&cursor=${Buffer.from(JSON.stringify(['2026-11-25T10:00:00.000Z', '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21'])).toString('base64url')}%3D%3D`,
  );
  void settings;
  return fc
    .array(
      fc.oneof(
        { weight: 5, arbitrary: encoded },
        { weight: 1, arbitrary: raw },
      ),
      { maxLength: 4 },
    )
    .map((parts) => (parts.length ? `?${parts.join('&')}` : ''));
}

/** A path segment for {id}: an existing id, a UUID, or anything at all. */
function idSegment(settings: FuzzSettings): fc.Arbitrary<IdChoice> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.nat().map((n): IdChoice => ({ existing: n })) },
    {
      weight: 2,
      arbitrary: fc.uuid().map((id): IdChoice => ({ segment: id })),
    },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          textArbitrary({ bodyLimit: Math.min(settings.bodyLimit, 4_000) }),
          fc.constantFrom(...SQL_LIKE),
        )
        .filter((s) => s !== '' && s !== '.' && s !== '..')
        .map((s): IdChoice => ({ segment: percentEncode(s) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('%', '%zz', '%E0%A4%A', '%FF', 'a%2', '%C0%AF', '%00')
        .map((s): IdChoice => ({ segment: s })),
    },
  );
}

/**
 * Percent-encodes as a client would, lone surrogates included (as U+FFFD,
 * where encodeURIComponent would throw).
 */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

export type IdChoice = { existing: number } | { segment: string };

export interface FuzzRequest {
  operation: Operation;
  method: string;
  /**
   * Path and query, with {id} still to fill for `idChoice`, and on the
   * asset routes {assetId} for `assetChoice` (fuzz-asset-requests.ts).
   */
  path: string;
  idChoice?: IdChoice;
  assetChoice?: IdChoice;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

const withContentType = (type: string | null): Record<string, string> =>
  type === null ? {} : { 'content-type': type };

/**
 * Idempotency-Key: usually none; else a key from a small pool (so that
 * retries, reuse with another body and concurrency happen), an odd one, or
 * the header twice.
 */
const idempotencyKey = fc
  .option(
    fc.oneof(
      fc.constantFrom<string | string[]>('retry-1', 'retry-2', 'retry-3'),
      fc.constantFrom('', ' ', 'k'.repeat(255), 'k'.repeat(256), 'a\tb'),
      headerSafe,
      fc.tuple(headerSafe, headerSafe).map(([a, b]) => [a, b]),
    ),
    { freq: 3 },
  )
  .map((key): Record<string, string | string[]> => {
    const headers: Record<string, string | string[]> = {};
    if (key !== null) headers['idempotency-key'] = key;
    return headers;
  });

/** If-Match or If-None-Match values: real, stale, weak, odd or repeated. */
const entityTags = fc.oneof(
  fc.constantFrom(
    '"1"',
    '"2"',
    '"3"',
    'W/"1"',
    '*',
    '"1", "2"',
    '',
    '"',
    'garbage',
    '"999999999999999999999"',
    '*, "1"',
  ),
  headerSafe,
  fc
    .tuple(
      fc.constantFrom('"1"', '"2"', 'x'),
      fc.constantFrom('"1"', '"3"', '*'),
    )
    .map(([a, b]) => [a, b]),
);

const conditions = (name: 'if-match' | 'if-none-match') =>
  fc
    .option(entityTags, { freq: 3 })
    .map((value): Record<string, string | string[]> =>
      value === null ? {} : { [name]: value },
    );

const validLogoBody = fc
  .record({
    companyName: fc.string({ minLength: 1, maxLength: 100 }),
    style: fc.constantFrom('modern', 'geometric', 'playful'),
    colors: fc.array(fc.constantFrom('navy', '#ffd700', 'white'), {
      minLength: 1,
      maxLength: 5,
    }),
  })
  .map((body) => Buffer.from(JSON.stringify(body)));

export function requestArbitrary(
  operation: Operation,
  settings: FuzzSettings,
): fc.Arbitrary<FuzzRequest> {
  const query = queryArbitrary(settings);
  if (isAssetOperation(operation)) {
    return assetRequestArbitrary(operation, {
      id: idSegment(settings),
      query,
      logoBody: fc.oneof(
        {
          weight: 3,
          arbitrary: bodyBytes(
            objectBody(
              LOGO_FIELDS.filter((field) => field !== 'projectId'),
              settings,
            ),
            settings,
          ),
        },
        // Whole valid requests too, so that logos are kept (and the
        // project fills up) often enough to exercise those answers.
        { weight: 1, arbitrary: validLogoBody },
      ),
      contentType: contentType.map(withContentType),
      idempotencyKey,
      ifMatch: conditions('if-match'),
      ifNoneMatch: conditions('if-none-match'),
      oddText: fc.oneof(
        textArbitrary({ bodyLimit: 4_000 }),
        fc.constantFrom(...SQL_LIKE),
      ),
      encode: percentEncode,
    });
  }
  switch (operation) {
    case 'create':
    case 'logo': {
      const fields = operation === 'create' ? PROJECT_FIELDS : LOGO_FIELDS;
      const path =
        operation === 'create' ? '/api/projects' : '/api/ai/generate-logo';
      return fc
        .tuple(
          bodyBytes(objectBody(fields, settings), settings),
          contentType,
          query,
          idempotencyKey,
        )
        .map(([body, type, q, key]) => ({
          operation,
          method: 'POST',
          path: `${path}${q}`,
          headers: { ...withContentType(type), ...key },
          body,
        }));
    }
    case 'patch':
      return fc
        .tuple(
          idSegment(settings),
          bodyBytes(objectBody(PROJECT_FIELDS, settings), settings),
          contentType,
          query,
          conditions('if-match'),
        )
        .map(([idChoice, body, type, q, ifMatch]) => ({
          operation,
          method: 'PATCH',
          path: `/api/projects/{id}${q}`,
          idChoice,
          headers: { ...withContentType(type), ...ifMatch },
          body,
        }));
    case 'get':
    case 'delete':
      return fc
        .tuple(
          idSegment(settings),
          query,
          conditions(operation === 'get' ? 'if-none-match' : 'if-match'),
        )
        .map(([idChoice, q, condition]) => ({
          operation,
          method: operation === 'get' ? 'GET' : 'DELETE',
          path: `/api/projects/{id}${q}`,
          idChoice,
          headers: condition,
        }));
    case 'list':
      return fc
        .tuple(query, fc.option(fc.constantFrom(...CONTENT_TYPES)))
        .map(([q, type]) => ({
          operation,
          method: 'GET',
          path: `/api/projects${q}`,
          headers: withContentType(type),
        }));
    case 'logoInfo':
      return query.map((q) => ({
        operation,
        method: 'GET',
        path: `/api/ai/generate-logo${q}`,
        headers: {},
      }));
    case 'unknownRoute':
      return fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
          fc.oneof(
            fc.constantFrom(
              '/',
              '/api',
              '/api/project',
              '/api/projects/a/b',
              '/api/ai',
              '/api/ai/generate-logo/x',
              '/%2e%2e/%2e%2e/etc/passwd',
            ),
            fc.string({ maxLength: 20 }).map((s) => `/x/${percentEncode(s)}`),
          ),
          query,
        )
        .map(([method, path, q]) => ({
          operation,
          method,
          path: `${path}${q}`,
          headers: {},
          body:
            method === 'GET' || method === 'DELETE' || method === 'OPTIONS'
              ? undefined
              : Buffer.from('{}'),
        }));
  }
}
