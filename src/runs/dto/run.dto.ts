import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  RUN_STATUSES,
  RUN_STEP_STATUSES,
  RUN_STEP_TYPES,
  type RunStatus,
  type RunStepStatus,
  type RunStepType,
} from '../run-graph';
import type { RunQuote } from '../run-quote';

/** One step of a run: a node of the graph and the task doing its work. */
export class RunStepDto {
  @ApiProperty({
    enum: RUN_STEP_TYPES,
    enumName: 'RunStepType',
    example: 'logo',
  })
  type: RunStepType;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The task doing the step (null until it is queued).',
    example: '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
  })
  taskId: string | null;

  @ApiProperty({
    enum: RUN_STEP_STATUSES,
    enumName: 'RunStepStatus',
    description:
      'PENDING until its needs are met; QUEUED and RUNNING as its task; WAITING: its task succeeded and its result waits to be chosen; SUCCEEDED; FAILED or CANCELLED as its task; STALE: a result it was made from was chosen differently afterwards (not run again); SKIPPED: the run ended before it.',
    example: 'SUCCEEDED',
  })
  status: RunStepStatus;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 2,
    description:
      'Present from the second attempt of a type: the fixes of the landing page and the site checks after them.',
    example: 2,
  })
  attempt?: number;
}

export class RunQuoteDto implements RunQuote {
  @ApiProperty({
    type: 'integer',
    description: 'Image model calls the run makes at most.',
    example: 4,
  })
  imageCalls: number;

  @ApiProperty({
    type: 'integer',
    description: 'Text and code model calls the run makes at most.',
    example: 5,
  })
  textCalls: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Fixes of the landing page the run may make after site checks.',
    example: 2,
  })
  maxFixes: number;
}

export const RUN_ERROR_CODES = [
  'step_failed',
  'step_refused',
  'site_check_failed',
] as const;
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

export class RunErrorDto {
  @ApiProperty({
    enum: RUN_ERROR_CODES,
    enumName: 'RunErrorCode',
    description:
      "step_failed: a step's task failed or was cancelled; step_refused: a step's task could not be created (its `code` and message say why); site_check_failed: the site check still found errors after the fixes and publish was not forced.",
    example: 'step_failed',
  })
  code: RunErrorCode;

  @ApiProperty({ example: "The logo step's task failed: refused" })
  message: string;

  @ApiPropertyOptional({
    enum: RUN_STEP_TYPES,
    enumName: 'RunStepType',
    example: 'logo',
  })
  step?: RunStepType;
}

/** A run: one request taking a project through its sections. */
export class RunDto {
  @ApiProperty({ example: '019aa8f6-0a1b-7c2d-8e3f-4a5b6c7d8e9f' })
  id: string;

  @ApiProperty({ example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20' })
  projectId: string;

  @ApiProperty({
    enum: RUN_STATUSES,
    enumName: 'RunStatus',
    description:
      'QUEUED until its first task is queued; RUNNING while a task is queued or runs; WAITING while only a choice is left (without autoChoose); SUCCEEDED; FAILED (see error); CANCELLED.',
    example: 'RUNNING',
  })
  status: RunStatus;

  @ApiProperty({ example: true })
  autoChoose: boolean;

  @ApiProperty({ type: [RunStepDto] })
  steps: RunStepDto[];

  @ApiProperty({ type: RunQuoteDto })
  quote: RunQuoteDto;

  @ApiPropertyOptional({
    description: "The published site's address (from the publish step).",
    example: 'https://sites.example.com/acme/v1/',
  })
  siteUrl?: string;

  @ApiPropertyOptional({ type: RunErrorDto })
  error?: RunErrorDto;

  @ApiProperty({ example: '2026-11-29T10:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ example: '2026-11-29T10:00:05.000Z' })
  updatedAt: string;
}

export const RUN_EXAMPLE: RunDto = {
  id: '019aa8f6-0a1b-7c2d-8e3f-4a5b6c7d8e9f',
  projectId: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
  status: 'RUNNING',
  autoChoose: true,
  steps: [
    {
      type: 'logo',
      taskId: '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
      status: 'SUCCEEDED',
    },
    {
      type: 'marketing-copy',
      taskId: '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0c',
      status: 'RUNNING',
    },
    { type: 'icon-set', taskId: null, status: 'PENDING' },
  ],
  quote: { imageCalls: 4, textCalls: 1, maxFixes: 0 },
  createdAt: '2026-11-29T10:00:00.000Z',
  updatedAt: '2026-11-29T10:00:05.000Z',
};
