import { applyDecorators } from '@nestjs/common';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import { ApiBody, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ApiIfMatch, ETAG_HEADER } from '../docs/conditional-headers.openapi';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { SectionResponseDto } from './dto/section-responses.dto';
import { SelectAssetDto } from './dto/select-asset.dto';
import {
  NOT_A_RESULT_MESSAGE,
  NOTHING_CHOSEN_MESSAGE,
  SECTION_IN_PROGRESS_MESSAGE,
} from './sections.errors';

/**
 * The OpenAPI description of the selection routes, one composite
 * decorator per route. They fail with `{error}`, as the project routes do.
 */

const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const SECTION_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const ASSET_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e30';
const TIME = '2026-11-22T03:39:09.321Z';

const sectionExample = (
  status: string,
  selectedAssetId: string | null,
): SectionResponseDto => ({
  section: {
    id: SECTION_ID,
    projectId: PROJECT_ID,
    type: 'LOGO',
    status,
    selectedAssetId,
    createdAt: TIME,
    updatedAt: TIME,
  },
});

const PARAMS = [
  PROJECT_ID_PARAM,
  ApiParam({
    name: 'sectionId',
    description: 'The id of one of its sections',
    schema: { type: 'string', example: SECTION_ID },
  }),
];

const PROJECT_OR_SECTION_NOT_FOUND =
  'No project with this id (of the caller\'s, with AUTH_MODE=oidc): "Project not found"; or the project has no section with this id: "Section not found"';

export const SelectAssetEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "Choose one of a section's results",
      description:
        "The asset becomes the section's `selectedAssetId` and the section is DONE (IN_PROGRESS again while a later task runs for it). Choosing the asset already chosen answers the same section. The project's version (its ETag) moves on.",
      operationId: 'selectSectionAsset',
    }),
    ...PARAMS,
    ApiBody({
      type: SelectAssetDto,
      examples: {
        choose: { summary: 'Choose a result', value: { assetId: ASSET_ID } },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'The section, DONE, with its chosen result',
      headers: ETAG_HEADER,
      type: SectionResponseDto,
      example: sectionExample('DONE', ASSET_ID),
    }),
    ApiInvalidInput('error', 'The body has no assetId string', {
      path: ['assetId'],
      message: 'Required',
      code: 'invalid_type',
    }),
    ApiBodyFailures('error'),
    ApiFailure(
      'error',
      404,
      'Asset not found',
      `${PROJECT_OR_SECTION_NOT_FOUND}; or the project has no asset with this id: "Asset not found"`,
    ),
    ApiFailure(
      'error',
      409,
      NOT_A_RESULT_MESSAGE,
      `The asset is a result of another section of the project; or a task is running for this section: "${SECTION_IN_PROGRESS_MESSAGE}"`,
    ),
    ApiRouteFailure('error', 'Failed to choose result', 'The change failed'),
    ApiIfMatch('update'),
    ApiAuth('error', 'required'),
  );

export const UnselectAssetEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "Un-choose a section's result",
      description:
        "The section has no chosen result any more: REVIEW while it holds results, PENDING when it holds none (IN_PROGRESS while a task runs for it). The project's version (its ETag) moves on.",
      operationId: 'unselectSectionAsset',
    }),
    ...PARAMS,
    ApiResponse({
      status: 200,
      description: 'The section, without a chosen result',
      headers: ETAG_HEADER,
      type: SectionResponseDto,
      example: sectionExample('REVIEW', null),
    }),
    ApiFailure('error', 404, 'Section not found', PROJECT_OR_SECTION_NOT_FOUND),
    ApiFailure(
      'error',
      409,
      NOTHING_CHOSEN_MESSAGE,
      'The section has no chosen result',
    ),
    ApiRouteFailure('error', 'Failed to un-choose result', 'The change failed'),
    ApiIfMatch('update'),
    ApiAuth('error', 'required'),
  );
