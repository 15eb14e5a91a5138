import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BrandKitInputDto } from '../../brand-kit/dto/brand-kit-input.dto';
import { IconSetInputDto } from '../../icons/dto/icon-set-input.dto';
import { registerUnionSchema } from '../../docs/union-schema';
import { GraphicsInputDto } from '../../graphics/dto/graphics-input.dto';
import { PublishInputDto } from '../../sites/dto/publish-input.dto';
import { LandingPageInputDto } from '../../text-generation/dto/landing-page-input.dto';
import { MarketingCopyInputDto } from '../../text-generation/dto/marketing-copy-input.dto';
import { LogoEditInputDto } from './logo-edit-input.dto';
import { LogoTaskInputDto } from './logo-task-input.dto';
import type { TaskType } from './task.dto';
import { WireframeInputDto } from '../../wireframes/dto/wireframe-input.dto';
import { SiteCheckInputDto } from '../../site-check/dto/site-check-input.dto';

/**
 * POST /api/projects/{id}/tasks as the document describes it: one schema
 * per task type, `type` telling them apart (a `discriminator` with its
 * mapping), each with its own `input` — required where the type's input
 * has a required field (the server validates a missing input as `{}`),
 * so a generated client does not compile `{type: "logo"}` without one.
 * CreateTaskDto (create-task.dto.ts) is what the route validates; a test
 * checks the two agree for every type.
 */

const TYPE = (type: TaskType) => ApiProperty({ enum: [type], example: type });

export class CreateLogoTaskDto {
  @TYPE('logo')
  type: 'logo';
  @ApiProperty({
    type: () => LogoTaskInputDto,
    description:
      'The logo request of POST /api/projects/{id}/logos plus count (1-4). Unknown fields are stripped.',
  })
  input: LogoTaskInputDto;
}

export class CreateLogoEditTaskDto {
  @TYPE('logo-edit')
  type: 'logo-edit';
  @ApiProperty({
    type: () => LogoEditInputDto,
    description:
      'A kept logo of the project, what to change, 1-4 variations. Unknown fields are stripped.',
  })
  input: LogoEditInputDto;
}

export class CreateMarketingCopyTaskDto {
  @TYPE('marketing-copy')
  type: 'marketing-copy';
  @ApiPropertyOptional({
    type: () => MarketingCopyInputDto,
    description:
      'Optional: every field has a default. Unknown fields are stripped.',
  })
  input?: MarketingCopyInputDto;
}

export class CreateLandingPageTaskDto {
  @TYPE('landing-page')
  type: 'landing-page';
  @ApiPropertyOptional({
    type: () => LandingPageInputDto,
    description:
      'Optional: it reads the project, its latest marketing copy, its chosen logo and wireframe; with `fixReportId` (a site-report of this project) it asks for the checked page corrected instead.',
  })
  input?: LandingPageInputDto;
}

export class CreateBrandKitTaskDto {
  @TYPE('brand-kit')
  type: 'brand-kit';
  @ApiPropertyOptional({
    type: () => BrandKitInputDto,
    description:
      "Optional: without `assetId`, the section's chosen logo (else the newest). Unknown fields are stripped.",
  })
  input?: BrandKitInputDto;
}

export class CreateWireframeTaskDto {
  @TYPE('wireframe')
  type: 'wireframe';
  @ApiPropertyOptional({
    type: () => WireframeInputDto,
    description:
      'Optional: the pages to plan (default ["home"]) and notes. Unknown fields are stripped.',
  })
  input?: WireframeInputDto;
}

export class CreateIconSetTaskDto {
  @TYPE('icon-set')
  type: 'icon-set';
  @ApiProperty({
    type: () => IconSetInputDto,
    description:
      'The icons to make (1-24 names) and their style. Unknown fields are stripped.',
  })
  input: IconSetInputDto;
}

export class CreateGraphicsTaskDto {
  @TYPE('graphics')
  type: 'graphics';
  @ApiPropertyOptional({
    type: () => GraphicsInputDto,
    description:
      "Optional: the five social formats by default (hero only when asked), the headline by default the latest marketing copy's tagline, else the project's name. Unknown fields are stripped.",
  })
  input?: GraphicsInputDto;
}

export class CreateSiteCheckTaskDto {
  @TYPE('site-check')
  type: 'site-check';
  @ApiPropertyOptional({
    type: () => SiteCheckInputDto,
    description:
      "Optional: without `assetId`, the CODE section's chosen landing page (none chosen: 409). Unknown fields are stripped.",
  })
  input?: SiteCheckInputDto;
}

export class CreatePublishTaskDto {
  @TYPE('publish')
  type: 'publish';
  @ApiPropertyOptional({
    type: () => PublishInputDto,
    description:
      "Optional: publishes the CODE section's chosen landing page as the site's next version; without `force` its newest site check report must exist and have no errors (409 otherwise, the report in the body). Unknown fields are stripped.",
  })
  input?: PublishInputDto;
}

/** The schema of each task type's request. */
export const CREATE_TASK_DTOS = {
  logo: () => CreateLogoTaskDto,
  'logo-edit': () => CreateLogoEditTaskDto,
  'marketing-copy': () => CreateMarketingCopyTaskDto,
  'landing-page': () => CreateLandingPageTaskDto,
  'brand-kit': () => CreateBrandKitTaskDto,
  wireframe: () => CreateWireframeTaskDto,
  'icon-set': () => CreateIconSetTaskDto,
  graphics: () => CreateGraphicsTaskDto,
  'site-check': () => CreateSiteCheckTaskDto,
  publish: () => CreatePublishTaskDto,
} satisfies Record<TaskType, () => unknown>;

/** The union's name: the body schema the route has always named. */
export const CREATE_TASK_SCHEMA = 'CreateTaskDto';

registerUnionSchema(CREATE_TASK_SCHEMA, {
  description:
    'A task to run: `type` says which, and which `input` it takes (validated by that type’s rules)',
  propertyName: 'type',
  members: CREATE_TASK_DTOS,
});
