import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiAuth } from '../failures/failure-responses.openapi';
import { UsageReportDto } from './dto/usage-report.dto';

export const UsageReportEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Spend',
      description:
        "The caller's estimated spend on paid model calls (the price table's) today and this month (UTC), by project, with the budgets in force. Without AUTH_MODE=oidc the caller is its address.",
      operationId: 'getUsage',
    }),
    ApiResponse({
      status: 200,
      description: "The caller's spend",
      type: UsageReportDto,
      example: {
        day: '2026-11-28',
        month: '2026-11',
        todayUsd: 0.167,
        monthUsd: 0.501,
        budgets: { perUserDayUsd: 5, perProjectUsd: 20 },
        projects: [
          {
            projectId: 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
            todayUsd: 0.167,
            monthUsd: 0.501,
          },
        ],
      },
    }),
    ApiAuth('error', 'required'),
  );
