import { ApiProperty } from '@nestjs/swagger';
import {
  CHANGE_EVENT_TYPES,
  type ChangeEvent,
} from '../../change-log/change-event';
import type { SameFields } from '../../common/same-fields';

/**
 * One event of a live-change stream, the JSON of its `data:` line (its
 * `event:` line is the type, its `id:` line the id).
 */
export class ChangeEventDto {
  @ApiProperty({
    description:
      'Grows with every event: send it back as Last-Event-ID to resume',
    example: '1042',
  })
  id: string;

  @ApiProperty({ enum: CHANGE_EVENT_TYPES, example: 'task.updated' })
  type: string;

  @ApiProperty({ example: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20' })
  projectId: string;

  @ApiProperty({ description: "The project's owner", example: 'user-1' })
  userId: string;

  @ApiProperty({
    description: 'When the change was made (ISO-8601 UTC)',
    example: '2026-11-27T10:15:30.123Z',
  })
  at: string;

  @ApiProperty({
    description:
      "What changed. Every type but project.deleted has `etag`, the project's new ETag (compare it with the one a page holds: equal means nothing to refetch). project.updated: `fields` (names changed); asset.created: `assetId`, `sectionId`, `kind`; asset.deleted: `assetId`; task.updated: `taskId`, `type`, `status`, `attempts`, `progress` (`done`, `total`: a task keeps each result as it is made, with one task.updated and one asset.created); section.updated: `sectionId` and what moved of `status`, `selectedAssetId`; agent.updated: `agentId`, `status`",
    type: 'object',
    additionalProperties: true,
    example: {
      taskId: '019aa8f2-6a00-7c3e-9a51-3c1f5d0b8e21',
      type: 'logo',
      status: 'RUNNING',
      attempts: 1,
      progress: { done: 0, total: 1 },
      etag: '"7"',
    },
  })
  data: Record<string, unknown>;
}

/**
 * The schema names the fields every event has (change-log/change-event.ts,
 * whose `data` per type is described above), and every event fits it: a
 * field added to either fails to compile. The properties keep their plain
 * types, which the OpenAPI plugin renders as the document has them.
 */
export const CHANGE_EVENT_SCHEMA_MATCHES: SameFields<
  Record<keyof ChangeEventDto, unknown>,
  Record<keyof ChangeEvent, unknown>
> = true;
export const CHANGE_EVENTS_FIT_SCHEMA: ChangeEvent extends ChangeEventDto
  ? true
  : never = true;

/**
 * `event: reset`: the Last-Event-ID sent is older than the log keeps
 * (EVENTS_RETENTION_S) or unknown; refetch what the page shows, then go on
 * (the stream continues after `lastEventId`).
 */
export class ResetEventDto {
  @ApiProperty({ enum: ['purged', 'unknown'], example: 'purged' })
  reason: string;

  @ApiProperty({ example: '1042' })
  lastEventId: string;
}
