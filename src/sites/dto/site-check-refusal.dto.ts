import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../failures/error-responses.dto';
import { FINDING_SEVERITIES } from '../../site-check/site-report';
import { REPORT_FINDINGS_SHOWN } from '../sites.errors';

export class SiteFindingDto {
  @ApiProperty({ example: 'image-alt', description: 'A stable rule name.' })
  rule: string;
  @ApiProperty({ enum: FINDING_SEVERITIES, example: 'error' })
  severity: string;
  @ApiProperty({ example: 'An image has no alt text' })
  message: string;
  @ApiPropertyOptional({
    example: 'img',
    description: 'A CSS selector of the element, when it is about one.',
  })
  selector?: string;
}

export class SiteFindingCountsDto {
  @ApiProperty({ type: 'integer', example: 2 })
  error: number;
  @ApiProperty({ type: 'integer', example: 1 })
  warning: number;
  @ApiProperty({ type: 'integer', example: 0 })
  info: number;
}

/** The site check's report a refused publish carries. */
export class RefusedReportDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The landing page that was checked (the chosen one).',
    example: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
  })
  assetId: string;
  @ApiProperty({ example: false })
  passed: boolean;
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 62 })
  score: number;
  @ApiProperty({ type: () => SiteFindingCountsDto })
  counts: SiteFindingCountsDto;
  @ApiProperty({
    type: () => [SiteFindingDto],
    maxItems: REPORT_FINDINGS_SHOWN,
    description: `The first ${REPORT_FINDINGS_SHOWN} findings.`,
  })
  findings: SiteFindingDto[];
}

/**
 * A 409 of POST …/tasks: `{error, code}`, and with `code:
 * "site_check_failed"` (a publish refused by its gate) the report.
 */
export class TaskConflictResponseDto extends ErrorResponseDto {
  @ApiPropertyOptional({
    type: () => RefusedReportDto,
    description:
      'With `code: "site_check_failed"`: the chosen page\'s newest site check report, which has errors.',
  })
  report?: RefusedReportDto;
}
