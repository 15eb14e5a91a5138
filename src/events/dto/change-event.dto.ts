import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_KINDS, AssetDto } from '../../assets/dto/asset.dto';
import {
  EVENT_DATA_LIMIT_BYTES,
  type ChangeEvent,
  type ChangeEventType,
  type SentChangeData,
} from '../../change-log/change-event';
import type { SameFields } from '../../common/same-fields';
import { registerUnionSchema } from '../../docs/union-schema';
import { SectionDto } from '../../sections/dto/section.dto';
import {
  AGENT_STATUSES,
  SECTION_STATUSES,
} from '../../sections/sections.constants';
import {
  TASK_STATUSES,
  TASK_TYPES,
  TaskDto,
  TaskProgressDto,
} from '../../tasks/dto/task.dto';
import type { PresentedShapes } from '../presented-event';
import { RunDto, RunStepDto } from '../../runs/dto/run.dto';
import { RUN_STATUSES } from '../../runs/run-graph';

/**
 * The live-change streams' events, one schema per type: `ChangeEventDto`
 * is their union, tagged by `type` (a `discriminator` with its mapping),
 * and `StreamEventDto` adds the `reset` event: what a `data:` line holds.
 * Each type's `data` is checked at compile time against what the change
 * log records (change-log/change-event.ts) as the streams present it.
 */

const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const SECTION_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const ASSET_ID = '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d';
const TASK_ID = '019aa8f4-1c2d-7e3f-8a4b-5c6d7e8f9a0b';
const AGENT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e29';
const RUN_ID = '019aa8f6-0a1b-7c2d-8e3f-4a5b6c7d8e9f';

const ETAG = () =>
  ApiProperty({
    description:
      "The project's ETag after the change: equal to the one a page holds means it has applied the change already",
    example: '"7"',
  });

const TRUNCATED = (part: string) =>
  ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description: `Present (true) when \`${part}\` was left out: the data passed ${EVENT_DATA_LIMIT_BYTES / 1024} KB (or the event was recorded before events carried it). Refetch what it names.`,
    example: true,
  });

/** The fields PATCH changes, as project.updated names them. */
export const PROJECT_UPDATE_FIELDS = ['name', 'description', 'userId'] as const;

export class ProjectCreatedDataDto {
  @ETAG()
  etag: string;
}

/** The changed fields' new values, as the project's answer shows them. */
export class ProjectValuesDto {
  @ApiPropertyOptional({ example: 'Spring launch' })
  name?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Brand kit' })
  description?: string | null;
  @ApiPropertyOptional({ example: 'user-1' })
  userId?: string;
  @ApiProperty({
    format: 'date-time',
    description: 'The project’s new updatedAt (every change moves it)',
    example: '2026-11-27T10:15:30.123Z',
  })
  updatedAt: string;
}

export class ProjectUpdatedDataDto {
  @ApiProperty({
    enum: PROJECT_UPDATE_FIELDS,
    isArray: true,
    description: 'The fields the change set',
    example: ['name'],
  })
  fields: string[];
  @ApiPropertyOptional({
    type: () => ProjectValuesDto,
    description: 'Their new values, with updatedAt: assign them to the project',
  })
  values?: ProjectValuesDto;
  @TRUNCATED('values')
  truncated?: true;
  @ETAG()
  etag: string;
}

/** project.deleted carries nothing but its ids (the event's projectId). */
export class ProjectDeletedDataDto {}

export class AssetCreatedDataDto {
  @ApiProperty({ example: ASSET_ID })
  assetId: string;
  @ApiProperty({ type: String, nullable: true, example: SECTION_ID })
  sectionId: string | null;
  @ApiProperty({ enum: ASSET_KINDS, enumName: 'AssetKind', example: 'logo' })
  kind: string;
  @ApiPropertyOptional({
    type: () => AssetDto,
    description:
      "The asset as its routes answer it: add it to its section's `assets`. Its `url` is made as the event is sent (with AUTH_MODE=oidc signed, valid ASSET_URL_TTL_S from then).",
  })
  asset?: AssetDto;
  @TRUNCATED('asset')
  truncated?: true;
  @ETAG()
  etag: string;
}

export class AssetDeletedDataDto {
  @ApiProperty({ example: ASSET_ID })
  assetId: string;
  @ETAG()
  etag: string;
}

export class TaskUpdatedDataDto {
  @ApiProperty({ example: TASK_ID })
  taskId: string;
  @ApiProperty({ enum: TASK_TYPES, enumName: 'TaskType', example: 'logo' })
  type: string;
  @ApiProperty({
    enum: TASK_STATUSES,
    enumName: 'TaskStatus',
    example: 'RUNNING',
  })
  status: string;
  @ApiProperty({ type: 'integer', example: 1 })
  attempts: number;
  @ApiPropertyOptional({
    type: () => TaskProgressDto,
    description:
      'Results kept of those the task will keep: a task keeps each result as it is made, with one task.updated and one asset.created. Absent from events recorded before tasks kept their progress',
  })
  progress?: TaskProgressDto;
  @ApiPropertyOptional({
    type: () => TaskDto,
    description:
      "The task as its routes answer it: replace the project's task with this id (or add it)",
  })
  task?: TaskDto;
  @TRUNCATED('task')
  truncated?: true;
  @ETAG()
  etag: string;
}

export class SectionUpdatedDataDto {
  @ApiProperty({ example: SECTION_ID })
  sectionId: string;
  @ApiPropertyOptional({
    enum: SECTION_STATUSES,
    enumName: 'SectionStatus',
    example: 'REVIEW',
  })
  status?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: ASSET_ID })
  selectedAssetId?: string | null;
  @ApiPropertyOptional({
    type: () => SectionDto,
    description:
      "The section as the project's answer shows it, without its `assets` (asset events carry those): assign its fields",
  })
  section?: SectionDto;
  @TRUNCATED('section')
  truncated?: true;
  @ETAG()
  etag: string;
}

export class AgentUpdatedDataDto {
  @ApiProperty({ example: AGENT_ID })
  agentId: string;
  @ApiProperty({
    enum: AGENT_STATUSES,
    enumName: 'AgentStatus',
    example: 'WORKING',
  })
  status: string;
  @ETAG()
  etag: string;
}

export class RunUpdatedDataDto {
  @ApiProperty({ example: RUN_ID })
  runId: string;
  @ApiProperty({
    enum: RUN_STATUSES,
    enumName: 'RunStatus',
    example: 'RUNNING',
  })
  status: string;
  @ApiProperty({ type: () => [RunStepDto] })
  steps: Array<{
    type: string;
    taskId: string | null;
    status: string;
    attempt?: number;
  }>;
  @ApiPropertyOptional({
    type: () => RunDto,
    description: 'The run as its answer shows it: replace the one a page holds',
  })
  run?: RunDto;
  @TRUNCATED('run')
  truncated?: true;
  @ETAG()
  etag: string;
}

/** What every event has besides its type and data. */
abstract class ChangeEventFields {
  @ApiProperty({
    description:
      'Grows with every event: send it back as Last-Event-ID to resume',
    example: '1042',
  })
  id: string;

  @ApiProperty({ example: PROJECT_ID })
  projectId: string;

  @ApiProperty({ description: "The project's owner", example: 'user-1' })
  userId: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the change was made (ISO-8601 UTC)',
    example: '2026-11-27T10:15:30.123Z',
  })
  at: string;
}

const TYPE = (type: ChangeEventType | 'reset') =>
  ApiProperty({ enum: [type], example: type });

export class ProjectCreatedEventDto extends ChangeEventFields {
  @TYPE('project.created')
  type: 'project.created';
  @ApiProperty({ type: () => ProjectCreatedDataDto })
  data: ProjectCreatedDataDto;
}

export class ProjectUpdatedEventDto extends ChangeEventFields {
  @TYPE('project.updated')
  type: 'project.updated';
  @ApiProperty({ type: () => ProjectUpdatedDataDto })
  data: ProjectUpdatedDataDto;
}

export class ProjectDeletedEventDto extends ChangeEventFields {
  @TYPE('project.deleted')
  type: 'project.deleted';
  @ApiProperty({ type: () => ProjectDeletedDataDto })
  data: ProjectDeletedDataDto;
}

export class AssetCreatedEventDto extends ChangeEventFields {
  @TYPE('asset.created')
  type: 'asset.created';
  @ApiProperty({ type: () => AssetCreatedDataDto })
  data: AssetCreatedDataDto;
}

export class AssetDeletedEventDto extends ChangeEventFields {
  @TYPE('asset.deleted')
  type: 'asset.deleted';
  @ApiProperty({ type: () => AssetDeletedDataDto })
  data: AssetDeletedDataDto;
}

export class TaskUpdatedEventDto extends ChangeEventFields {
  @TYPE('task.updated')
  type: 'task.updated';
  @ApiProperty({ type: () => TaskUpdatedDataDto })
  data: TaskUpdatedDataDto;
}

export class SectionUpdatedEventDto extends ChangeEventFields {
  @TYPE('section.updated')
  type: 'section.updated';
  @ApiProperty({ type: () => SectionUpdatedDataDto })
  data: SectionUpdatedDataDto;
}

export class AgentUpdatedEventDto extends ChangeEventFields {
  @TYPE('agent.updated')
  type: 'agent.updated';
  @ApiProperty({ type: () => AgentUpdatedDataDto })
  data: AgentUpdatedDataDto;
}

export class RunUpdatedEventDto extends ChangeEventFields {
  @TYPE('run.updated')
  type: 'run.updated';
  @ApiProperty({ type: () => RunUpdatedDataDto })
  data: RunUpdatedDataDto;
}

/**
 * `event: reset`: the Last-Event-ID sent is older than the log keeps
 * (EVENTS_RETENTION_S) or unknown; refetch what the page shows, then go on
 * (the stream continues after `lastEventId`).
 */
export class ResetEventDto {
  @TYPE('reset')
  type: 'reset';

  @ApiProperty({ enum: ['purged', 'unknown'], example: 'purged' })
  reason: 'purged' | 'unknown';

  @ApiProperty({ example: '1042' })
  lastEventId: string;
}

/** Each event type's schema. */
export const CHANGE_EVENT_DTOS = {
  'project.created': () => ProjectCreatedEventDto,
  'project.updated': () => ProjectUpdatedEventDto,
  'project.deleted': () => ProjectDeletedEventDto,
  'asset.created': () => AssetCreatedEventDto,
  'asset.deleted': () => AssetDeletedEventDto,
  'task.updated': () => TaskUpdatedEventDto,
  'section.updated': () => SectionUpdatedEventDto,
  'agent.updated': () => AgentUpdatedEventDto,
  'run.updated': () => RunUpdatedEventDto,
} satisfies Record<ChangeEventType, () => unknown>;

export const CHANGE_EVENT_SCHEMA = 'ChangeEventDto';
export const STREAM_EVENT_SCHEMA = 'StreamEventDto';

registerUnionSchema(CHANGE_EVENT_SCHEMA, {
  description:
    'One change, as the change log keeps it: its `type` says which schema its `data` has',
  propertyName: 'type',
  members: CHANGE_EVENT_DTOS,
});
registerUnionSchema(STREAM_EVENT_SCHEMA, {
  description:
    'The JSON of one `data:` line of a live-change stream: a change (its `event:` line is its type), or a `reset`',
  propertyName: 'type',
  members: { ...CHANGE_EVENT_DTOS, reset: () => ResetEventDto },
});

/** Every event type's DTO, by type. */
type EventDtoOf = {
  [T in keyof typeof CHANGE_EVENT_DTOS]: InstanceType<
    ReturnType<(typeof CHANGE_EVENT_DTOS)[T]>
  >;
};

/** What a stream sends of an event of type T, as the log records it. */
type Sent<T extends ChangeEventType> = SentChangeData<T, PresentedShapes>;

/**
 * Each schema names the fields its type's data has, and the data fits it:
 * a field added to either fails to compile (project.created and
 * project.deleted carry nothing of their own).
 */
type DataMatches<T extends ChangeEventType> = [
  SameFields<
    Record<keyof EventDtoOf[T]['data'], unknown>,
    Record<keyof Sent<T>, unknown>
  >,
  Sent<T> extends EventDtoOf[T]['data'] ? true : never,
  EventDtoOf[T]['type'] extends T
    ? T extends EventDtoOf[T]['type']
      ? true
      : never
    : never,
];
type Checked =
  | 'project.updated'
  | 'asset.created'
  | 'asset.deleted'
  | 'task.updated'
  | 'section.updated'
  | 'agent.updated'
  | 'run.updated';
export const CHANGE_EVENT_DATA_MATCHES: {
  [T in Checked]: DataMatches<T>;
} = {
  'project.updated': [true, true, true],
  'asset.created': [true, true, true],
  'asset.deleted': [true, true, true],
  'task.updated': [true, true, true],
  'section.updated': [true, true, true],
  'agent.updated': [true, true, true],
  'run.updated': [true, true, true],
};
export const EMPTY_EVENT_DATA_MATCHES: [
  Sent<'project.created'> extends ProjectCreatedDataDto ? true : never,
  Sent<'project.deleted'> extends ProjectDeletedDataDto ? true : never,
] = [true, true];

/** Every event has the fields the log gives it, and only those. */
export const CHANGE_EVENT_FIELDS_MATCH: SameFields<
  Record<keyof ProjectCreatedEventDto, unknown>,
  Record<keyof ChangeEvent, unknown>
> = true;
