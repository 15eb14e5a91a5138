import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse } from '@nestjs/swagger';
import { PROJECT_ID_PARAM } from '../docs/project-id-param.openapi';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { RollbackSiteDto } from './dto/rollback-site.dto';
import { SiteResponseDto } from './dto/site.dto';

const PROJECT_ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';

const SITE_EXAMPLE: SiteResponseDto = {
  site: {
    url: `http://localhost:3001/${PROJECT_ID}/`,
    version: 2,
    versionUrl: `http://localhost:3001/${PROJECT_ID}/v2/`,
    publishedAt: '2026-11-22T03:39:09.321Z',
    deploymentId: '019aa8f3-0b4e-7a21-8c3d-5e6f7a8b9c0d',
  },
};

const PROJECT_NOT_FOUND_TEXT =
  'No project with this id (of the caller\'s, with AUTH_MODE=oidc): `{error:"Project not found", code:"project_not_found"}`';

export const GetSiteEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "The project's published site",
      description:
        "Its current address (on the sites origin, SITES_BASE_URL, never the API's), version and deployment record. A `publish` task publishes the next version; rollback and DELETE change which one is current.",
      operationId: 'getSite',
    }),
    PROJECT_ID_PARAM,
    ApiResponse({
      status: 200,
      description: 'The current site',
      type: SiteResponseDto,
      example: SITE_EXAMPLE,
    }),
    ApiFailure(
      'error',
      404,
      'Site not found',
      `The project has no current site: never published, or taken down (\`code: "site_not_found"\`); or ${PROJECT_NOT_FOUND_TEXT}`,
    ),
    ApiRouteFailure(
      'error',
      'Failed to fetch site',
      'The site could not be read',
    ),
    ApiAuth('error', 'required'),
  );

export const RollbackSiteEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Make an earlier version current',
      description:
        "The version's files are served at the site's address from now on; every replica shows it within 5 s (the sites listener reads the current version at most 1 s old). Any published version may be made current again, also after DELETE.",
      operationId: 'rollbackSite',
    }),
    PROJECT_ID_PARAM,
    ApiBody({
      type: RollbackSiteDto,
      examples: {
        first: { summary: 'Back to version 1', value: { version: 1 } },
      },
    }),
    ApiResponse({
      status: 200,
      description: 'The site, at that version',
      type: SiteResponseDto,
      example: {
        site: {
          ...SITE_EXAMPLE.site,
          version: 1,
          versionUrl: `http://localhost:3001/${PROJECT_ID}/v1/`,
        },
      },
    }),
    ApiInvalidInput(
      'error',
      'version is missing, not an integer, or below 1; or the body is not JSON (`{error:"Request body is not valid JSON"}`, without details)',
      {
        path: ['version'],
        message: 'Number must be greater than or equal to 1',
        code: 'too_small',
      },
      { unreadableBody: true },
    ),
    ApiBodyFailures('error'),
    ApiFailure(
      'error',
      404,
      'Site version not found',
      `The project never published this version (\`code: "site_version_not_found"\`); or ${PROJECT_NOT_FOUND_TEXT}`,
    ),
    ApiRouteFailure('error', 'Failed to roll back site', 'The change failed', {
      unreadableBodyIsClientError: true,
    }),
    ApiAuth('error', 'required'),
  );

export const DeleteSiteEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Take the site down',
      description:
        "The site's address answers 404 within 5 s on every replica. Its versions stay: a rollback (or the next publish) brings it back.",
      operationId: 'deleteSite',
    }),
    PROJECT_ID_PARAM,
    ApiResponse({ status: 204, description: 'Taken down' }),
    ApiFailure(
      'error',
      404,
      'Site not found',
      `The project has no current site (\`code: "site_not_found"\`); or ${PROJECT_NOT_FOUND_TEXT}`,
    ),
    ApiRouteFailure('error', 'Failed to take site down', 'The change failed'),
    ApiAuth('error', 'required'),
  );
