import { ApiProperty } from '@nestjs/swagger';

const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';

/** A project's published site as its answers show it. */
export class SiteDto {
  @ApiProperty({
    description:
      "The site's current address, on the sites origin (SITES_BASE_URL), never the API's: `<SITES_BASE_URL>/<projectId>/` (SITES_STORE=s3: `<SITES_BASE_URL>/sites/<projectId>/current/`).",
    example: `http://localhost:3001/${PROJECT_ID}/`,
  })
  url: string;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The current version: 1, 2, … per project.',
    example: 2,
  })
  version: number;

  @ApiProperty({
    description:
      "The current version's own address, whose files never change (cached for a year).",
    example: `http://localhost:3001/${PROJECT_ID}/v2/`,
  })
  versionUrl: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When that version was published.',
    example: '2026-11-22T03:39:09.321Z',
  })
  publishedAt: string;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'uuid',
    description:
      'The `deployment` asset (DEPLOYMENT section) recording that version; null once that asset was deleted (the version itself stays).',
    example: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
  })
  deploymentId: string | null;
}

export class SiteResponseDto {
  @ApiProperty({ type: () => SiteDto })
  site: SiteDto;
}
