/**
 * The `code` of every error body: a stable, machine-readable cause sent
 * beside the human text (`error`), which stays as the contract wrote it.
 * The one list the exception filter, the OpenAPI document and docs/api.md
 * use; a code, once published, keeps its meaning.
 */

export interface ErrorCodeInfo {
  /** The statuses answered with it. */
  statuses: readonly number[];
  /** Sending the same request again later may succeed. */
  retry: boolean;
  meaning: string;
}

export const ERROR_CODES = {
  invalid_input: {
    statuses: [400, 500],
    retry: false,
    meaning:
      'A validation rule failed; `details` lists each one (500 without details: a PATCH the original contract answers so)',
  },
  invalid_json: {
    statuses: [400, 500],
    retry: false,
    meaning:
      'The body is empty or not JSON (500 on the routes of the original contract)',
  },
  bad_request: {
    statuses: [400],
    retry: false,
    meaning: "Node's HTTP parser refused the request itself",
  },
  body_too_large: {
    statuses: [413],
    retry: false,
    meaning: 'The body is larger than BODY_LIMIT',
  },
  body_timeout: {
    statuses: [408],
    retry: true,
    meaning: 'The body or the request did not arrive in time',
  },
  unsupported_media_type: {
    statuses: [415],
    retry: false,
    meaning: 'A Content-Type a browser sends without a CORS preflight',
  },
  invalid_upload: {
    statuses: [400],
    retry: false,
    meaning:
      'A multipart upload without exactly one `file` part, or over its limits of parts and fields',
  },
  file_too_large: {
    statuses: [413],
    retry: false,
    meaning: 'The uploaded file is larger than ASSET_UPLOAD_MAX_BYTES',
  },
  unsupported_image_type: {
    statuses: [415],
    retry: false,
    meaning:
      'The uploaded file is not a PNG, JPEG, WebP or SVG, told from its bytes (the declared type is ignored)',
  },
  too_many_pixels: {
    statuses: [400],
    retry: false,
    meaning:
      'The uploaded image has more pixels than ASSET_UPLOAD_MAX_PIXELS, or its size cannot be read',
  },
  svg_unsafe: {
    statuses: [400],
    retry: false,
    meaning:
      'An SVG that cannot be made safe: not well-formed, a DOCTYPE or entities, another root than `<svg>`, or over the size, element or nesting bounds',
  },
  headers_too_large: {
    statuses: [431],
    retry: false,
    meaning: 'The request headers, the URL included, are over 16 KB',
  },
  not_found: {
    statuses: [404],
    retry: false,
    meaning: 'No such route',
  },
  project_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'No such project (of this caller)',
  },
  section_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'The project has no such section',
  },
  asset_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'The project has no such asset',
  },
  task_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'The project has no such task',
  },
  run_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'No such run in that project',
  },
  logo_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'A hosted logo URL that has expired or never existed',
  },
  site_not_found: {
    statuses: [404],
    retry: false,
    meaning:
      'The project has no published site (never published, or taken down)',
  },
  site_version_not_found: {
    statuses: [404],
    retry: false,
    meaning: 'The project published no such version of its site',
  },
  unauthorized: {
    statuses: [401],
    retry: false,
    meaning: 'AUTH_MODE=oidc: no valid bearer token',
  },
  forbidden: {
    statuses: [403],
    retry: false,
    meaning: 'AUTH_MODE=oidc: the request names another user',
  },
  asset_url_refused: {
    statuses: [403],
    retry: false,
    meaning:
      'An asset content URL whose signature is missing, forged or expired',
  },
  precondition_failed: {
    statuses: [412],
    retry: false,
    meaning: 'If-Match names no current version of the project',
  },
  task_finished: {
    statuses: [409],
    retry: false,
    meaning: 'The task has already finished and cannot be cancelled',
  },
  run_finished: {
    statuses: [409],
    retry: false,
    meaning: 'The run has already finished and cannot be cancelled',
  },
  asset_limit_reached: {
    statuses: [409],
    retry: false,
    meaning: 'The project holds ASSET_MAX_PER_PROJECT assets already',
  },
  task_exceeds_asset_limit: {
    statuses: [409],
    retry: false,
    meaning:
      'The task would keep more results than the project has room for under ASSET_MAX_PER_PROJECT (nothing was queued); ask for fewer or delete some',
  },
  section_in_progress: {
    statuses: [409],
    retry: true,
    meaning: 'A task is running for the section; choose once it has finished',
  },
  not_a_result_of_section: {
    statuses: [409],
    retry: false,
    meaning: 'The asset belongs to another section',
  },
  nothing_chosen: {
    statuses: [409],
    retry: false,
    meaning: 'The section has no chosen result to remove',
  },
  site_not_checked: {
    statuses: [409],
    retry: false,
    meaning:
      'publish: the chosen landing page has no site check report; run a site-check first, or publish with force',
  },
  site_check_failed: {
    statuses: [409],
    retry: false,
    meaning:
      "publish: the chosen page's newest site check found errors; `report` carries it. Fix the page, or publish with force",
  },
  conflict: {
    statuses: [409],
    retry: false,
    meaning: 'Another conflict with the current state',
  },
  idempotency_key_in_use: {
    statuses: [409],
    retry: true,
    meaning: "The key's first request is still being processed",
  },
  idempotency_key_reused: {
    statuses: [422],
    retry: false,
    meaning: 'The key was first used with another request body',
  },
  rate_limited: {
    statuses: [429],
    retry: true,
    meaning: 'This client is over its rate limit (Retry-After)',
  },
  budget_exceeded: {
    statuses: [429],
    retry: true,
    meaning:
      'The call would take the user over SPEND_LIMIT_USD_PER_USER_DAY (Retry-After: until the UTC day turns) or its project over SPEND_LIMIT_USD_PER_PROJECT (until the UTC month turns); nothing was sent to the model',
  },
  too_many_tasks: {
    statuses: [429],
    retry: true,
    meaning: 'The project or its owner has too many unfinished tasks',
  },
  too_many_runs: {
    statuses: [429],
    retry: true,
    meaning:
      "The project's owner has RUNS_MAX_CONCURRENT_PER_USER unfinished runs",
  },
  too_many_streams: {
    statuses: [429],
    retry: true,
    meaning: 'This client has EVENTS_CLIENT_LIMIT live-change streams open',
  },
  busy: {
    statuses: [503],
    retry: true,
    meaning: 'This instance is at capacity: its line is full (Retry-After)',
  },
  auth_unavailable: {
    statuses: [503],
    retry: true,
    meaning: "AUTH_MODE=oidc: the OpenID Provider's keys cannot be fetched",
  },
  asset_storage_unavailable: {
    statuses: [503],
    retry: true,
    meaning: 'The bucket of kept logos failed or did not answer in time',
  },
  image_api_not_configured: {
    statuses: [500],
    retry: false,
    meaning: 'IMAGE_API_KEY is not set on the server',
  },
  moderation_blocked: {
    statuses: [500],
    retry: false,
    meaning: "The image provider's safety system refused the prompt",
  },
  model_unavailable: {
    statuses: [500],
    retry: false,
    meaning: 'The image provider does not know or offer the configured model',
  },
  upstream_refused: {
    statuses: [500],
    retry: false,
    meaning: 'The image provider refused the request (a 4xx other than 429)',
  },
  upstream_failed: {
    statuses: [500],
    retry: true,
    meaning: 'The image provider failed (429 or 5xx), retries included',
  },
  upstream_timeout: {
    statuses: [500],
    retry: true,
    meaning: 'The image provider did not answer within the deadline',
  },
  upstream_unreachable: {
    statuses: [500],
    retry: true,
    meaning: 'The image provider could not be reached',
  },
  upstream_invalid_answer: {
    statuses: [500],
    retry: false,
    meaning: "The image provider's answer held no usable image",
  },
  internal_error: {
    statuses: [500],
    retry: true,
    meaning: "A failure of the service's own; the route's text says which",
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);

/** The codes a status can carry, for a response's schema. */
export const codesOfStatus = (status: number): ErrorCode[] =>
  ERROR_CODE_LIST.filter((code) =>
    (ERROR_CODES[code].statuses as readonly number[]).includes(status),
  );

/**
 * The code of an answer whose error does not name its own: the status's
 * general one.
 */
export function defaultCodeOf(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid_input';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 408:
      return 'body_timeout';
    case 409:
      return 'conflict';
    case 412:
      return 'precondition_failed';
    case 413:
      return 'body_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'idempotency_key_reused';
    case 429:
      return 'rate_limited';
    case 431:
      return 'headers_too_large';
    case 503:
      return 'busy';
    default:
      return 'internal_error';
  }
}
