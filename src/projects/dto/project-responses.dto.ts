import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
  PickType,
} from '@nestjs/swagger';
import { ClosedSchema } from '../../docs/closed-schema.decorator';
import { AssetDto } from '../../assets/dto/asset.dto';
import { TaskDto } from '../../tasks/dto/task.dto';
import { SECTION_FIELDS, SectionDto } from '../../sections/dto/section.dto';
import type { Agent, Project, Section } from '../entities';
import { NO_NUL_PATTERN } from '../../common/validation/storable-text.decorator';
import type { SameFields } from '../../common/same-fields';
import { CURSOR_EXAMPLE } from './cursor-example';
import type {
  IgnoredUpdateFields,
  UpdateProjectDto,
} from './update-project.dto';
import {
  PROJECT_USER_ID_MAX,
  AGENT_PROVIDERS,
  AGENT_STATUSES,
  AGENT_TYPES,
} from '../projects.constants';

/**
 * The response bodies of the project routes: one class per shape, the one
 * source of its fields. Each shape's field list (`*_FIELDS`, checked
 * against the class by the compiler) drives the repository's SQL column
 * lists and JSON members; its mapper (`to*Dto`, typed to return the class)
 * builds it from an entity; the classes describe it for the OpenAPI
 * document and the generated client. Internal columns (a section's
 * position, a project's version) never appear; timestamps are ISO-8601 UTC
 * strings with milliseconds.
 */

/**
 * The fields of a response shape, in the order the API writes them: each
 * of the class's fields exactly once (a field missing or unknown fails to
 * compile).
 */
const fieldsOf = <T>(fields: { [K in keyof T]-?: true }) =>
  Object.keys(fields) as Array<keyof T & string>;

const ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const TIME = '2026-11-22T03:39:09.321Z';

export { SECTION_FIELDS, SectionDto };

export const toSectionDto = (section: Section): SectionDto => ({
  id: section.id,
  projectId: section.projectId,
  type: section.type,
  status: section.status,
  selectedAssetId: section.selectedAssetId,
  createdAt: section.createdAt.toISOString(),
  updatedAt: section.updatedAt.toISOString(),
});

export class SectionWithAssetsDto extends SectionDto {
  @ApiProperty({ type: [AssetDto] })
  assets: AssetDto[];
}

export class AgentDto {
  @ApiProperty({ example: ID })
  id: string;
  @ApiProperty({ example: PROJECT_ID })
  projectId: string;
  @ApiProperty({ example: 'Code Master' })
  name: string;
  @ApiProperty({ enum: AGENT_TYPES, enumName: 'AgentType', example: 'CODE' })
  type: string;
  @ApiProperty({
    enum: AGENT_PROVIDERS,
    enumName: 'AgentProvider',
    example: 'CODE_PROVIDER',
  })
  provider: string;
  @ApiProperty({
    enum: AGENT_STATUSES,
    enumName: 'AgentStatus',
    example: 'IDLE',
  })
  status: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  createdAt: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  updatedAt: string;
}

export const AGENT_FIELDS = fieldsOf<AgentDto>({
  id: true,
  projectId: true,
  name: true,
  type: true,
  provider: true,
  status: true,
  createdAt: true,
  updatedAt: true,
});

export const toAgentDto = (agent: Agent): AgentDto => ({
  id: agent.id,
  projectId: agent.projectId,
  name: agent.name,
  type: agent.type,
  provider: agent.provider,
  status: agent.status,
  createdAt: agent.createdAt.toISOString(),
  updatedAt: agent.updatedAt.toISOString(),
});

export class ProjectCountDto {
  @ApiProperty({ example: 0 })
  tasks: number;
  @ApiProperty({ example: 0 })
  assets: number;
}

/** The project's own fields. */
export class ProjectDto {
  @ApiProperty({ example: PROJECT_ID })
  id: string;
  @ApiProperty({ example: 'Spring launch' })
  name: string;
  @ApiProperty({ type: String, nullable: true, example: 'Brand kit' })
  description: string | null;
  @ApiProperty({ example: 'user-1' })
  userId: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  createdAt: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  updatedAt: string;
}

export const PROJECT_FIELDS = fieldsOf<ProjectDto>({
  id: true,
  name: true,
  description: true,
  userId: true,
  createdAt: true,
  updatedAt: true,
});

export const toProjectDto = (project: Project): ProjectDto => ({
  id: project.id,
  name: project.name,
  description: project.description,
  userId: project.userId,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

/** A project as the examples of the OpenAPI document show it. */
export const PROJECT_EXAMPLE: ProjectDto = {
  id: ID,
  name: 'Spring launch',
  description: 'Brand kit',
  userId: 'user-1',
  createdAt: TIME,
  updatedAt: TIME,
};

/** POST and PATCH answers: with sections and agents. */
export class ProjectWithDefaultsDto extends ProjectDto {
  @ApiProperty({
    type: [SectionDto],
    description: 'Always the 8 types, in their fixed order',
  })
  sections: SectionDto[];
  @ApiProperty({ type: [AgentDto] })
  agents: AgentDto[];
}

/** A list item: sections, agents, tasks and counts. */
export class ProjectListItemDto extends ProjectWithDefaultsDto {
  @ApiProperty({ type: [TaskDto] })
  tasks: TaskDto[];
  @ApiProperty({ type: ProjectCountDto })
  _count: ProjectCountDto;
}

/** A single fetch: sections with assets, tasks newest first, assets. */
export class ProjectDetailDto extends ProjectDto {
  @ApiProperty({ type: [SectionWithAssetsDto] })
  sections: SectionWithAssetsDto[];
  @ApiProperty({ type: [AgentDto] })
  agents: AgentDto[];
  @ApiProperty({ type: [TaskDto], description: 'Newest first' })
  tasks: TaskDto[];
  @ApiProperty({ type: [AssetDto] })
  assets: AssetDto[];
  @ApiProperty({
    type: ProjectCountDto,
    description:
      'All its tasks (`tasks` shows the newest 20) and assets, as the list counts them',
  })
  _count: ProjectCountDto;
}

export class ProjectResponseDto {
  @ApiProperty({ type: ProjectWithDefaultsDto })
  project: ProjectWithDefaultsDto;
}

export class ProjectDetailResponseDto {
  @ApiProperty({ type: ProjectDetailDto })
  project: ProjectDetailDto;
}

/** A section in the summary view: what a list page's progress shows. */
export class SectionSummaryDto extends PickType(SectionDto, [
  'id',
  'type',
  'status',
] as const) {}

/** SectionSummaryDto's fields in the order the API writes them. */
export const SECTION_SUMMARY_FIELDS = [
  'id',
  'type',
  'status',
] as const satisfies ReadonlyArray<keyof SectionSummaryDto>;

/**
 * A list item with `view=summary`: what a list page shows, without
 * agents or tasks.
 */
export class ProjectSummaryItemDto extends ProjectDto {
  @ApiProperty({
    type: [SectionSummaryDto],
    description: 'Always the 8 types, in their fixed order',
  })
  sections: SectionSummaryDto[];
  @ApiProperty({ type: ProjectCountDto })
  _count: ProjectCountDto;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uri',
    description:
      "The chosen logo (the LOGO section's selected asset, a PNG, JPEG or WebP) as a 128×128 PNG rendition: its `url` with `size=128`, signed like it under AUTH_MODE=oidc. Null when no logo is chosen.",
    example:
      'http://127.0.0.1:3000/api/projects/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20/assets/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e30/content?size=128',
  })
  logoThumbnailUrl: string | null;
}

@ApiExtraModels(ProjectListItemDto, ProjectSummaryItemDto)
export class ProjectListResponseDto {
  @ApiProperty({
    type: 'array',
    items: {
      anyOf: [
        { $ref: getSchemaPath(ProjectListItemDto) },
        { $ref: getSchemaPath(ProjectSummaryItemDto) },
      ],
    },
    description:
      'Each a ProjectListItem; with `view=summary`, each a ProjectSummaryItem',
  })
  projects: Array<ProjectListItemDto | ProjectSummaryItemDto>;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Only when `limit` was given: pass it back as `cursor` for the next page; null after the last page',
    example: CURSOR_EXAMPLE,
  })
  nextCursor?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Only with `includeTotal=true`: how many projects match `userId` and `q`, on every page (as `X-Total-Count`)',
    example: 42,
  })
  total?: number;
}

export class DeleteProjectResponseDto {
  @ApiProperty({ example: true, enum: [true] })
  success: true;
}

/**
 * PATCH: any of the three fields, without length rules on name and
 * description; id, createdAt and updatedAt are accepted and ignored. Any
 * other property (the relations of a fetched project included) fails the
 * update (500), hence a closed schema.
 */
@ClosedSchema()
export class UpdateProjectBodyDto {
  @ApiPropertyOptional({
    description:
      'Stored as sent: any length the body limit (BODY_LIMIT) lets through, the empty string too; no NUL, no lone surrogate. With PATCH_LENGTH_LIMITS=true, 1 to 100 characters as on create.',
    pattern: NO_NUL_PATTERN,
    example: 'Summer launch',
  })
  name?: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'Stored as sent, or null to clear it: any length the body limit lets through; no NUL, no lone surrogate. With PATCH_LENGTH_LIMITS=true, at most 500 characters as on create.',
    pattern: NO_NUL_PATTERN,
    example: 'Brand kit v2',
  })
  description?: string | null;
  @ApiPropertyOptional({
    description:
      'At most 255 characters on every database (it is indexed), no NUL, no lone surrogate; not null. With a bearer token, only your own user id (otherwise 403).',
    maxLength: PROJECT_USER_ID_MAX,
    pattern: NO_NUL_PATTERN,
    example: 'user-2',
  })
  userId?: string;
  @ApiPropertyOptional({ description: 'Ignored', example: PROJECT_ID })
  id?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Ignored',
    example: TIME,
  })
  createdAt?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Ignored; the service sets it',
    example: TIME,
  })
  updatedAt?: string;
}

/**
 * The PATCH body's OpenAPI schema is the fields parseProjectUpdate applies
 * (UpdateProjectDto) and those it ignores, nothing more or less.
 */
export const UPDATE_BODY_SCHEMA_MATCHES: SameFields<
  UpdateProjectBodyDto,
  UpdateProjectDto & IgnoredUpdateFields
> = true;
