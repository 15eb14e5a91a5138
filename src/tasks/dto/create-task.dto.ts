import {
  ApiExtraModels,
  ApiProperty,
  ApiPropertyOptional,
  getSchemaPath,
} from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import { LandingPageInputDto } from '../../text-generation/dto/landing-page-input.dto';
import { MarketingCopyInputDto } from '../../text-generation/dto/marketing-copy-input.dto';
import { LogoEditInputDto } from './logo-edit-input.dto';
import { LogoTaskInputDto } from './logo-task-input.dto';
import { BrandKitInputDto } from '../../brand-kit/dto/brand-kit-input.dto';
import { IconSetInputDto } from '../../icons/dto/icon-set-input.dto';
import { GraphicsInputDto } from '../../graphics/dto/graphics-input.dto';
import { TASK_TYPES, type TaskType } from './task.dto';
import { PublishInputDto } from '../../sites/dto/publish-input.dto';
import { WireframeInputDto } from '../../wireframes/dto/wireframe-input.dto';
import { SiteCheckInputDto } from '../../site-check/dto/site-check-input.dto';

/**
 * POST /api/projects/{id}/tasks as the route validates it: `type`, then
 * `input` by the type's own rules (a missing input is validated as `{}`).
 * The document describes the body as the union of one schema per type
 * (create-task-request.dto.ts), which replaces this class's schema.
 */
@ApiExtraModels(
  LogoTaskInputDto,
  MarketingCopyInputDto,
  LandingPageInputDto,
  LogoEditInputDto,
  BrandKitInputDto,
  WireframeInputDto,
  IconSetInputDto,
  GraphicsInputDto,
  SiteCheckInputDto,
  PublishInputDto,
)
export class CreateTaskDto {
  @ApiProperty({ enum: TASK_TYPES, enumName: 'TaskType', example: 'logo' })
  @IsDefined(Messages.required())
  @IsIn(TASK_TYPES, Messages.oneOf(TASK_TYPES))
  type: TaskType;

  @ApiPropertyOptional({
    anyOf: [
      { $ref: getSchemaPath(LogoTaskInputDto) },
      { $ref: getSchemaPath(MarketingCopyInputDto) },
      { $ref: getSchemaPath(LandingPageInputDto) },
      { $ref: getSchemaPath(LogoEditInputDto) },
      { $ref: getSchemaPath(BrandKitInputDto) },
      { $ref: getSchemaPath(WireframeInputDto) },
      { $ref: getSchemaPath(IconSetInputDto) },
      { $ref: getSchemaPath(GraphicsInputDto) },
      { $ref: getSchemaPath(SiteCheckInputDto) },
      { $ref: getSchemaPath(PublishInputDto) },
    ],
    description:
      'logo: the logo request of POST /api/projects/{id}/logos plus count (1-4); marketing-copy: {tone?, audience?, language?}; landing-page: {fixReportId?} (it reads the project, its latest marketing copy, its chosen logo and its chosen wireframe; with fixReportId, a site-report of the project, it asks for the checked page corrected); logo-edit: {assetId, instructions, count?} (a kept logo of the project, what to change, 1-4 variations); brand-kit: {assetId?, backgroundColor?}; wireframe: {pages?, notes?} (the pages to plan, default ["home"]); icon-set: {names (1-24 kebab names), style?}; graphics: {formats?, headline?} (og, x, linkedin, instagram, story by default; hero only when asked); site-check: {assetId?} (a landing page of the project, by default the chosen one of CODE); publish: {force?} (the chosen landing page, gated by its newest site check report). Unknown fields are stripped.',
    example: {
      companyName: 'Acme',
      style: 'modern',
      colors: ['#0044ff'],
      count: 3,
    },
  })
  @Optional()
  @IsObject(Messages.object())
  input?: Record<string, unknown>;
}
