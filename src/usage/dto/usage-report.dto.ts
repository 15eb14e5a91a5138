import { ApiProperty } from '@nestjs/swagger';

/** The budgets in force (USD); null: none. */
export class UsageBudgetsDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'SPEND_LIMIT_USD_PER_USER_DAY, or null when unset',
    example: 5,
  })
  perUserDayUsd: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      'SPEND_LIMIT_USD_PER_PROJECT (a project, one UTC month), or null when unset',
    example: 20,
  })
  perProjectUsd: number | null;
}

/** One project's spend; projectId null: calls of no project (POST /api/ai/generate-logo). */
export class ProjectUsageDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  })
  projectId: string | null;

  @ApiProperty({ example: 0.167 })
  todayUsd: number;

  @ApiProperty({ example: 0.501 })
  monthUsd: number;
}

/** GET /api/usage: the caller's estimated spend (price table), UTC periods. */
export class UsageReportDto {
  @ApiProperty({ format: 'date', example: '2026-11-28' })
  day: string;

  @ApiProperty({ example: '2026-11' })
  month: string;

  @ApiProperty({ example: 0.167 })
  todayUsd: number;

  @ApiProperty({ example: 0.501 })
  monthUsd: number;

  @ApiProperty({ type: UsageBudgetsDto })
  budgets: UsageBudgetsDto;

  @ApiProperty({ type: ProjectUsageDto, isArray: true })
  projects: ProjectUsageDto[];
}
