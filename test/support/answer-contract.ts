import { isErrorCode } from '../../src/failures/error-codes';
import { ResponseContract, loadOpenApiDocument } from './openapi-responses';

/**
 * What the API reference (docs/api.md) allows each operation to answer —
 * 413, 415, 429/503 with Retry-After, pagination 400s and 404 for unknown
 * routes included — as a checker the reliability drivers run on every
 * response.
 */

export type Operation =
  | 'create'
  | 'list'
  | 'get'
  | 'patch'
  | 'delete'
  | 'logo'
  | 'logoInfo'
  | 'keepLogo'
  | 'getAsset'
  | 'deleteAsset'
  | 'assetContent'
  | 'unknownRoute';

export const OPERATIONS: readonly Operation[] = [
  'create',
  'list',
  'get',
  'patch',
  'delete',
  'logo',
  'logoInfo',
  'keepLogo',
  'getAsset',
  'deleteAsset',
  'assetContent',
  'unknownRoute',
];

/** The kept-logo routes (src/assets): their requests name an asset. */
export type AssetOperation = Extract<
  Operation,
  'keepLogo' | 'getAsset' | 'deleteAsset' | 'assetContent'
>;

export const isAssetOperation = (
  operation: Operation,
): operation is AssetOperation =>
  operation === 'keepLogo' ||
  operation === 'getAsset' ||
  operation === 'deleteAsset' ||
  operation === 'assetContent';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const SECTION_TYPES = [
  'LOGO',
  'ICONS',
  'GRAPHICS',
  'MARKETING',
  'WIREFRAME',
  'CODE',
  'TESTING',
  'DEPLOYMENT',
];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const FAILURE_TEXT: Partial<Record<Operation, string>> = {
  create: 'Failed to create project',
  list: 'Failed to fetch projects',
  get: 'Failed to fetch project',
  patch: 'Failed to update project',
  delete: 'Failed to delete project',
  getAsset: 'Failed to read asset',
  deleteAsset: 'Failed to delete asset',
  assetContent: 'Failed to read asset',
};

/**
 * Any route: request headers (the URL included) over Node's 16 KB limit
 * (docs/api.md, "Answers shared by every route"), answered before any route is
 * known, so always as {error}.
 */
const HEADERS_TOO_LARGE = 431;

/** The statuses each operation may answer (docs/api.md). */
export const DOCUMENTED_STATUSES: Record<Operation, readonly number[]> = {
  // 415 only with CORS_ORIGINS set; 429 on create only with
  // PROJECT_CREATE_RATE_LIMIT; 304, 409, 412 and 422 only with the optional
  // Idempotency-Key and conditional headers.
  create: [201, 400, 409, 413, 415, 422, 429, 431, 500],
  list: [200, 400, 431, 500],
  get: [200, 304, 404, 431, 500],
  patch: [200, 412, 413, 415, 431, 500],
  delete: [200, 412, 431, 500],
  logo: [200, 400, 409, 413, 415, 422, 429, 431, 500, 503],
  logoInfo: [200, 431],
  // The OpenAPI document's statuses for the asset routes (408: a large body
  // that did not arrive in time; 503: the logo line is full).
  keepLogo: [201, 400, 404, 408, 409, 413, 415, 422, 429, 431, 500, 503],
  getAsset: [200, 404, 431, 500],
  deleteAsset: [200, 404, 412, 431, 500],
  // 403 only with AUTH_MODE=oidc (an unsigned, forged or expired URL).
  assetContent: [200, 304, 403, 404, 431, 500],
  unknownRoute: [404, 431],
};

/** With AUTH_MODE=oidc (docs/api.md, "Authentication"). */
const AUTHENTICATION_STATUSES = [401, 403, 503];

/** A request of each operation, as the OpenAPI document names it. */
const OPENAPI_REQUEST: Partial<Record<Operation, [string, string]>> = {
  create: ['POST', '/api/projects'],
  list: ['GET', '/api/projects'],
  get: ['GET', '/api/projects/id'],
  patch: ['PATCH', '/api/projects/id'],
  delete: ['DELETE', '/api/projects/id'],
  logo: ['POST', '/api/ai/generate-logo'],
  logoInfo: ['GET', '/api/ai/generate-logo'],
  keepLogo: ['POST', '/api/projects/id/logos'],
  getAsset: ['GET', '/api/projects/id/assets/id'],
  deleteAsset: ['DELETE', '/api/projects/id/assets/id'],
  assetContent: ['GET', '/api/projects/id/assets/id/content'],
};

let openApi: ResponseContract | undefined;

/** What the OpenAPI document says is wrong with the answer, if anything. */
function openApiProblem(operation: Operation, answer: Answer, body: unknown) {
  const request = OPENAPI_REQUEST[operation];
  if (!request) return undefined;
  openApi ??= new ResponseContract(loadOpenApiDocument());
  return openApi.problem(request[0], request[1], answer.status, body);
}

function projectProblems(project: unknown, withChildren: boolean): string[] {
  if (!isObject(project)) return ['project is not an object'];
  const problems: string[] = [];
  if (typeof project.id !== 'string') problems.push('project.id');
  if (typeof project.name !== 'string') problems.push('project.name');
  if (typeof project.userId !== 'string') problems.push('project.userId');
  if (project.description !== null && typeof project.description !== 'string')
    problems.push('project.description');
  if (typeof project.updatedAt !== 'string') problems.push('project.updatedAt');
  if (withChildren) {
    const sections = project.sections;
    if (
      !Array.isArray(sections) ||
      sections.map((s) => (s as Json).type).join() !== SECTION_TYPES.join()
    ) {
      problems.push('project.sections are not the 8 default sections');
    }
    if (!Array.isArray(project.agents) || project.agents.length !== 3) {
      problems.push('project.agents are not the 3 default agents');
    }
  }
  return problems;
}

/** What a logo upload (multipart/form-data) is refused with as 400. */
const UPLOAD_REFUSALS = ['invalid_upload', 'too_many_pixels', 'svg_unsafe'];

const ASSET_KEYS = [
  'id',
  'projectId',
  'sectionId',
  'kind',
  'contentType',
  'byteSize',
  'sha256',
  'url',
  'prompt',
  'model',
  'createdAt',
  'fileName',
  'width',
  'height',
  'thumbnailUrl',
];

function assetProblems(asset: unknown): string[] {
  if (!isObject(asset)) return ['asset is not an object'];
  const problems = exactKeys(asset, ASSET_KEYS);
  if (asset.kind !== 'logo') problems.push('asset.kind is not "logo"');
  if (typeof asset.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(asset.sha256))
    problems.push('asset.sha256 is not 64 hex digits');
  if (typeof asset.byteSize !== 'number' || asset.byteSize <= 0)
    problems.push('asset.byteSize is not a positive number');
  // Signed (AUTH_MODE=oidc) urls carry ?expires=&signature= after /content.
  const contentUrl =
    /\/assets\/([^/?]+)\/content(?:\?expires=\d+&signature=[\w-]+)?$/;
  if (
    typeof asset.url !== 'string' ||
    contentUrl.exec(asset.url)?.[1] !== asset.id
  ) {
    problems.push('asset.url is not its content url');
  }
  return problems;
}

/**
 * A 200 of the content route: bytes of an image type, with the headers a
 * cache and a browser rely on (the body is not JSON).
 */
function contentProblems(answer: Answer): string[] {
  const problems: string[] = [];
  const type = header(answer, 'content-type') ?? '';
  if (!['image/png', 'image/jpeg', 'image/webp'].includes(type)) {
    problems.push(`content-type is "${type}"`);
  }
  if (!/^"[0-9a-f]{64}"$/.test(header(answer, 'etag') ?? '')) {
    problems.push('ETag is not the quoted sha256');
  }
  if (header(answer, 'x-content-type-options') !== 'nosniff') {
    problems.push('no X-Content-Type-Options: nosniff');
  }
  if (!/immutable$/.test(header(answer, 'cache-control') ?? '')) {
    problems.push('Cache-Control is not immutable');
  }
  return problems;
}

function issuesProblems(details: unknown): string[] {
  if (!Array.isArray(details) || details.length === 0) {
    return ['details is not a non-empty array'];
  }
  return details.every(
    (issue) =>
      isObject(issue) &&
      Array.isArray(issue.path) &&
      issue.path.every((p) => typeof p === 'string' || typeof p === 'number') &&
      typeof issue.message === 'string' &&
      typeof issue.code === 'string',
  )
    ? []
    : ['details items are not {path, message, code}'];
}

function exactKeys(body: Json, keys: string[]): string[] {
  const actual = Object.keys(body).sort().join();
  return actual === [...keys].sort().join()
    ? []
    : [`body keys ${actual} are not ${keys.join()}`];
}

function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Problems with the body shape of a documented status (empty = fine). */
function shapeProblems(
  operation: Operation,
  answer: Answer,
  body: Json,
): string[] {
  const { status } = answer;
  if (status === HEADERS_TOO_LARGE) {
    return body.error === 'Request headers are too large' &&
      body.code === 'headers_too_large' &&
      Object.keys(body).length === 2
      ? []
      : [
          '431 body is not {error:"Request headers are too large", code:"headers_too_large"}',
        ];
  }
  const flagged = operation === 'logo' || operation === 'logoInfo';
  // Every error body carries its machine-readable code (docs/api.md).
  const envelope = flagged ? ['success', 'error', 'code'] : ['error', 'code'];
  const errorBody = (text?: string, extra: string[] = []): string[] => {
    const problems = exactKeys(body, [...envelope, ...extra]);
    if (flagged && body.success !== false)
      problems.push('success is not false');
    if (typeof body.error !== 'string' || body.error === '')
      problems.push('error is not a non-empty string');
    if (text !== undefined && body.error !== text)
      problems.push(`error is not "${text}"`);
    if (!isErrorCode(body.code)) problems.push('code is not an error code');
    return problems;
  };

  // An uploaded file refused for what it holds: its own codes, no details.
  if (
    status === 400 &&
    operation === 'keepLogo' &&
    UPLOAD_REFUSALS.includes(body.code as string)
  ) {
    return errorBody();
  }
  if (status === 400) {
    return [
      ...errorBody('Invalid input', ['details']),
      ...issuesProblems(body.details),
    ];
  }
  if (status === 408 || status === 413 || status === 422) return errorBody();
  if (status === 412) return errorBody('Precondition failed');
  if (status === 403 && operation === 'assetContent') {
    return errorBody('This asset URL has expired or is not valid');
  }
  if (status === 403) return errorBody('Forbidden');
  if (status === 401) {
    return [
      ...errorBody('Unauthorized'),
      ...(header(answer, 'www-authenticate')?.startsWith('Bearer ')
        ? []
        : ['no WWW-Authenticate: Bearer challenge']),
    ];
  }
  if (status === 415) return errorBody('Unsupported media type');
  // A project already full of assets: nothing to wait for, no Retry-After.
  if (
    operation === 'keepLogo' &&
    status === 409 &&
    typeof body.error === 'string' &&
    /^The project already holds \d+ assets, the most it may; delete one first$/.test(
      body.error,
    )
  ) {
    return errorBody();
  }
  if (status === 409 || status === 429 || status === 503) {
    const retryAfter = header(answer, 'retry-after');
    return [
      ...errorBody(),
      ...(retryAfter !== undefined && /^\d+$/.test(retryAfter)
        ? []
        : ['no Retry-After seconds header']),
    ];
  }
  if (status === 500) return errorBody(FAILURE_TEXT[operation]);

  switch (operation) {
    case 'create':
      return [
        ...exactKeys(body, ['project']),
        ...projectProblems(body.project, true),
      ];
    case 'get':
      if (status === 404) return errorBody('Project not found');
      return [
        ...exactKeys(body, ['project']),
        ...projectProblems(body.project, true),
      ];
    case 'patch':
      return [
        ...exactKeys(body, ['project']),
        ...projectProblems(body.project, true),
      ];
    case 'list': {
      const keys =
        'nextCursor' in body ? ['projects', 'nextCursor'] : ['projects'];
      const problems = exactKeys(body, keys);
      if (!Array.isArray(body.projects))
        return [...problems, 'projects is not an array'];
      if (
        'nextCursor' in body &&
        body.nextCursor !== null &&
        typeof body.nextCursor !== 'string'
      ) {
        problems.push('nextCursor is not a string or null');
      }
      for (const project of body.projects) {
        problems.push(...projectProblems(project, true));
        const count = (project as Json)._count;
        if (
          !isObject(count) ||
          typeof count.tasks !== 'number' ||
          typeof count.assets !== 'number'
        ) {
          problems.push('_count is not {tasks, assets}');
        }
      }
      return problems;
    }
    case 'delete':
      return body.success === true && Object.keys(body).length === 1
        ? []
        : ['body is not {success:true}'];
    case 'logo':
      return [
        // The contract's three fields, and when the logoUrl stops working
        // (null when the upstream's URL does not say).
        ...exactKeys(body, ['success', 'logoUrl', 'message', 'expiresAt']),
        ...(body.success === true &&
        typeof body.logoUrl === 'string' &&
        body.message === 'Logo generated successfully!' &&
        (body.expiresAt === null || typeof body.expiresAt === 'string')
          ? []
          : ['body is not {success:true, logoUrl, message, expiresAt}']),
      ];
    case 'logoInfo':
      return [
        ...exactKeys(body, [
          'service',
          'status',
          'message',
          'supportedStyles',
          'maxColors',
        ]),
        ...(body.maxColors === 5 && Array.isArray(body.supportedStyles)
          ? []
          : ['generator information is not as documented']),
      ];
    case 'keepLogo':
      if (status === 404) return errorBody('Project not found');
      return [...exactKeys(body, ['asset']), ...assetProblems(body.asset)];
    case 'getAsset':
      if (status === 404) return errorBody('Asset not found');
      return [...exactKeys(body, ['asset']), ...assetProblems(body.asset)];
    case 'deleteAsset':
      if (status === 404) {
        return [
          ...exactKeys(body, ['error', 'code']),
          ...(isErrorCode(body.code) ? [] : ['code is not an error code']),
          ...(body.error === 'Asset not found' ||
          body.error === 'Project not found'
            ? []
            : ['error is not "Asset not found" or "Project not found"']),
        ];
      }
      return body.success === true && Object.keys(body).length === 1
        ? []
        : ['body is not {success:true}'];
    case 'assetContent':
      return status === 404
        ? errorBody('Asset not found')
        : [`a ${status} of the content route is not JSON`];
    case 'unknownRoute':
      return errorBody('Not found');
  }
}

/**
 * Leaks that must never reach a client: a stack trace, SQL or a database
 * error, a file path, an internal address. Text the request itself carried
 * is not a leak (the logo route's parse error quotes the client's own body),
 * so `requestText` is consulted before flagging a match.
 */
const LEAK_PATTERNS: Array<[string, RegExp]> = [
  // Bounded repetitions: these run on bodies of hundreds of kilobytes, where
  // an unbounded `\w*` or `[\s\S]*` backtracks for seconds.
  [
    'a stack trace',
    /\bat [\w$.<>]{1,200} \(|\bat (?:async )?[^\s()]{1,300}:\d+:\d+/,
  ],
  ['a stack trace', /Error: [^\n]{0,500}\n\s{1,20}at /],
  [
    'SQL',
    /\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[\s\S]{0,300}?\b(?:FROM|VALUES|SET|WHERE)\b/i,
  ],
  [
    'a database error',
    /SQLITE_|QueryFailedError|syntax error at or near|violates (?:foreign key|unique|not-null)|relation "|duplicate key/i,
  ],
  [
    'a file path',
    /(?:\/(?:home|work|usr|tmp|var|root|app|opt|srv)\/[\w./-]+)|node_modules|\.(?:ts|js):\d+/,
  ],
  [
    'an internal address',
    /\b(?:127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(?:1[6-9]|2\d|3[01])\.\d+\.\d+|localhost|\[::1\]|ECONNREFUSED|ECONNRESET|ETIMEDOUT)\b/i,
  ],
];

export function leakProblems(text: string, requestText = ''): string[] {
  const problems: string[] = [];
  for (const [what, pattern] of LEAK_PATTERNS) {
    const match = pattern.exec(text);
    if (match && !requestText.includes(match[0])) {
      problems.push(`the body holds ${what}: ${JSON.stringify(match[0])}`);
    }
  }
  return problems;
}

/**
 * Everything wrong with one answer: an undocumented status, a body that is
 * not JSON or not of the documented shape (by this checker's rules and by
 * the OpenAPI document's schema), a leak, the secret.
 */
export function answerProblems(
  operation: Operation,
  answer: Answer,
  options: {
    requestText?: string;
    secret?: string;
    /** AUTH_MODE=oidc: every /api operation may also refuse its caller. */
    authenticated?: boolean;
  } = {},
): string[] {
  const problems: string[] = [];
  const documented = [
    ...DOCUMENTED_STATUSES[operation],
    // The content route needs no token: an <img> sends none.
    ...(options.authenticated &&
    operation !== 'unknownRoute' &&
    operation !== 'assetContent'
      ? AUTHENTICATION_STATUSES
      : []),
  ];
  if (!documented.includes(answer.status)) {
    problems.push(`status ${answer.status} is not documented for ${operation}`);
  }
  // Not modified: the one answer without a body (RFC 9110).
  if (answer.status === 304) {
    return answer.text === '' ? [] : ['a 304 has a body'];
  }
  // An asset's bytes: binary, so neither JSON nor a place for leak text.
  if (operation === 'assetContent' && answer.status === 200) {
    return [...problems, ...contentProblems(answer)];
  }
  const contentType = header(answer, 'content-type') ?? '';
  if (!contentType.startsWith('application/json')) {
    problems.push(`content-type is "${contentType}"`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    problems.push(
      `the body is not JSON: ${JSON.stringify(answer.text.slice(0, 200))}`,
    );
  }
  if (isObject(body)) {
    if (documented.includes(answer.status)) {
      problems.push(...shapeProblems(operation, answer, body));
    }
    const undocumented = openApiProblem(operation, answer, body);
    if (undocumented) problems.push(undocumented);
  } else if (body !== undefined) {
    problems.push('the body is not a JSON object');
  }
  // A project's own text fields hold whatever clients stored (earlier fuzz
  // cases store SQL-looking names): that is data, not a leak. So is an
  // asset's prompt (made of the client's logo request) and its urls (made
  // of the Host the client sent, or PUBLIC_BASE_URL).
  const ownText = isObject(body)
    ? JSON.stringify(body, (key, value: unknown) =>
        [
          'name',
          'description',
          'userId',
          'prompt',
          'url',
          'thumbnailUrl',
        ].includes(key)
          ? ''
          : value,
      )
    : answer.text;
  problems.push(...leakProblems(ownText, options.requestText));
  if (options.secret) {
    const headersText = JSON.stringify(answer.headers);
    if (
      answer.text.includes(options.secret) ||
      headersText.includes(options.secret)
    ) {
      problems.push('the image-API key appears in the answer');
    }
  }
  return problems;
}
