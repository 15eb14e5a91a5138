import { ApiProperty } from '@nestjs/swagger';

/**
 * A task as every answer that contains it shows it (the task routes and a
 * project's tasks): the one source of its fields. TASK_FIELDS (checked
 * against the class by the compiler) drives the SQL that renders tasks as
 * JSON in the database.
 */

export const TASK_TYPES = [
  'logo',
  'marketing-copy',
  'landing-page',
  'logo-edit',
  'brand-kit',
  'wireframe',
  'icon-set',
  'graphics',
  'site-check',
  'publish',
] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/**
 * QUEUED until a worker takes it; RUNNING while one works on it (again
 * QUEUED between attempts); then SUCCEEDED, FAILED or CANCELLED, for good.
 */
export const TASK_STATUSES = [
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task never leaves. */
export const FINISHED_TASK_STATUSES: readonly TaskStatus[] = [
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
];

/**
 * Why a task failed (its `error.code`): refused and moderation_blocked
 * (the provider refused; not retried), rate_limited, busy, upstream_error,
 * timeout (retried while attempts remain), invalid_answer, not_configured,
 * asset_limit, budget_exceeded, source_missing (a logo-edit's logo, or
 * the page a site check or a landing page's fix reads, is
 * gone), logo_gone (a brand kit's), worker_lost, internal.
 */
export const TASK_ERROR_CODES = [
  'refused',
  'moderation_blocked',
  'rate_limited',
  'busy',
  'upstream_error',
  'timeout',
  'invalid_answer',
  'not_configured',
  'asset_limit',
  'budget_exceeded',
  'source_missing',
  'logo_gone',
  'worker_lost',
  'internal',
] as const;
export type TaskErrorCode = (typeof TASK_ERROR_CODES)[number];

const TASK_ERROR_CODE_DESCRIPTION =
  "A short machine-readable reason: refused (the provider refused the request; not retried), moderation_blocked (the safety system of the provider refused the prompt; not retried), rate_limited, busy, upstream_error, timeout, invalid_answer, not_configured, asset_limit, budget_exceeded (the owner's usage budget is spent), source_missing (the logo a logo-edit works from, or the page or report a site-check or a landing-page fix reads, is gone), logo_gone (the logo a brand kit is made from is gone), worker_lost, internal.";

const ID = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const SECTION_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const AGENT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e29';
const ASSET_ID = '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d';
const TIME = '2026-11-22T03:39:09.321Z';
const LATER = '2026-11-22T03:39:21.870Z';

export class TaskErrorDto {
  @ApiProperty({
    enum: TASK_ERROR_CODES,
    enumName: 'TaskErrorCode',
    description: TASK_ERROR_CODE_DESCRIPTION,
    example: 'refused',
  })
  code: TaskErrorCode;
  @ApiProperty({
    description:
      "What happened, with the provider's own message where it gave one.",
    example: 'Your request was rejected by the safety system.',
  })
  message: string;
}

/** How far a task is: results kept of those it will keep. */
export class TaskProgressDto {
  @ApiProperty({
    type: 'integer',
    description:
      'Results kept so far (each is kept as it is made, so a task that fails part-way keeps these).',
    example: 1,
  })
  done: number;
  @ApiProperty({
    type: 'integer',
    description:
      "Results the task keeps when it succeeds: a logo or logo-edit task's `count`, the brand kit's 8 files, 1 for the other types.",
    example: 1,
  })
  total: number;
}

export class TaskDto {
  @ApiProperty({ description: 'The task id (UUID).', example: ID })
  id: string;
  @ApiProperty({ example: PROJECT_ID })
  projectId: string;
  @ApiProperty({
    enum: TASK_TYPES,
    enumName: 'TaskType',
    description:
      "logo: the DESIGN agent draws logo candidates into LOGO; marketing-copy: the MARKETING agent writes copy into MARKETING; landing-page: the CODE agent writes a landing page into CODE (following the chosen wireframe); logo-edit: the DESIGN agent draws variations of a kept logo into LOGO; brand-kit: the DESIGN agent makes favicon, icons, social image and mono/inverse logos from a logo into ICONS (no model call); wireframe: the CODE agent plans the site's pages into WIREFRAME (typed sections, JSON); icon-set: the DESIGN agent makes one SVG icon per name into ICONS (Lucide’s, restyled, or drawn by a model); graphics: the DESIGN agent composes social images (and a hero on an image-model background) into GRAPHICS; site-check: the CODE agent checks a landing page (HTML validity, accessibility, self-contained, weight, head, headings, declared contrast) into TESTING as a site-report (JSON; no model call).",
    example: 'logo',
  })
  type: TaskType;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The agent that runs it (null once that agent is gone).',
    example: AGENT_ID,
  })
  agentId: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The section its results go to (null once that section is gone).',
    example: SECTION_ID,
  })
  sectionId: string | null;
  @ApiProperty({
    enum: TASK_STATUSES,
    enumName: 'TaskStatus',
    example: 'SUCCEEDED',
  })
  status: TaskStatus;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The input it was created with, as validated.',
    example: {
      companyName: 'Acme',
      style: 'modern',
      colors: ['#0044ff'],
      count: 1,
    },
  })
  input: Record<string, unknown>;
  @ApiProperty({
    type: [String],
    description:
      'The assets it made, in its section, in the order they were kept: each is added as it is kept, and a task that ends FAILED or CANCELLED lists those it kept before.',
    example: [ASSET_ID],
  })
  assetIds: string[];
  @ApiProperty({
    type: TaskProgressDto,
    description:
      'Results kept (`done`) of those it will keep (`total`); `assetIds` lists the kept ones.',
  })
  progress: TaskProgressDto;
  // Written out rather than a $ref: OpenAPI 3.0 ignores `nullable` beside one.
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['code', 'message'],
    properties: {
      code: {
        type: 'string',
        enum: [...TASK_ERROR_CODES],
        description: TASK_ERROR_CODE_DESCRIPTION,
      },
      message: {
        type: 'string',
        description:
          "What happened, with the provider's own message where it gave one.",
      },
    },
    example: null,
  })
  error: TaskErrorDto | null;
  @ApiProperty({
    type: 'integer',
    description: 'Attempts started so far (a retried task counts each).',
    example: 1,
  })
  attempts: number;
  @ApiProperty({ format: 'date-time', example: TIME })
  createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When its first attempt started.',
    example: TIME,
  })
  startedAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it reached SUCCEEDED, FAILED or CANCELLED.',
    example: LATER,
  })
  finishedAt: string | null;
}

/** The fields, in the order the API writes them. */
export const TASK_FIELDS = Object.keys({
  id: true,
  projectId: true,
  type: true,
  agentId: true,
  sectionId: true,
  status: true,
  input: true,
  assetIds: true,
  progress: true,
  error: true,
  attempts: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
} satisfies { [K in keyof TaskDto]-?: true }) as Array<keyof TaskDto>;

/**
 * The columns of a task no answer shows: when it last changed, and the
 * embedded engine's schedule (when it may run, until when its worker
 * holds it, its place in its owner's line). With TaskDto's fields, every
 * column of the entity (checked in projects/entities/task.entity.ts).
 */
export type TaskInternalColumn =
  'updatedAt' | 'runAfter' | 'leaseUntil' | 'queuePlace';

/** Every column of the tasks table. */
export type TaskColumn = keyof TaskDto | TaskInternalColumn;

/** The fields stored as JSON text. */
export const TASK_JSON_FIELDS: ReadonlySet<string> = new Set([
  'input',
  'assetIds',
  'progress',
  'error',
]);

/** The fields stored as timestamps. */
export const TASK_TIME_FIELDS: ReadonlySet<string> = new Set([
  'createdAt',
  'startedAt',
  'finishedAt',
]);

/** One task, as the documentation shows it. */
export const TASK_EXAMPLE: TaskDto = {
  id: ID,
  projectId: PROJECT_ID,
  type: 'logo',
  agentId: AGENT_ID,
  sectionId: SECTION_ID,
  status: 'SUCCEEDED',
  input: {
    companyName: 'Acme',
    style: 'modern',
    colors: ['#0044ff'],
    count: 1,
  },
  assetIds: [ASSET_ID],
  progress: { done: 1, total: 1 },
  error: null,
  attempts: 1,
  createdAt: TIME,
  startedAt: TIME,
  finishedAt: LATER,
};
