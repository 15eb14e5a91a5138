import { ApiProperty } from '@nestjs/swagger';
import { SECTION_STATUSES, SECTION_TYPES } from '../sections.constants';

const ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const TIME = '2026-11-22T03:39:09.321Z';

/**
 * A section as every route answers it (a project's detail, the selection
 * routes). Here rather than with the project shapes so that sections
 * depends on no other feature; projects re-exports it.
 */
export class SectionDto {
  @ApiProperty({ example: ID })
  id: string;
  @ApiProperty({ example: PROJECT_ID })
  projectId: string;
  @ApiProperty({
    enum: SECTION_TYPES,
    enumName: 'SectionType',
    example: 'LOGO',
  })
  type: string;
  @ApiProperty({
    enum: SECTION_STATUSES,
    enumName: 'SectionStatus',
    example: 'PENDING',
  })
  status: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The result chosen from its assets (PUT …/sections/{sectionId}/selection), or null.',
    example: null,
  })
  selectedAssetId: string | null;
  @ApiProperty({ format: 'date-time', example: TIME })
  createdAt: string;
  @ApiProperty({ format: 'date-time', example: TIME })
  updatedAt: string;
}

/**
 * SectionDto's fields in the order the API writes them: each exactly once
 * (a field missing or unknown fails to compile).
 */
export const SECTION_FIELDS = Object.keys({
  id: true,
  projectId: true,
  type: true,
  status: true,
  selectedAssetId: true,
  createdAt: true,
  updatedAt: true,
} satisfies { [K in keyof SectionDto]-?: true }) as Array<keyof SectionDto>;
