import { applyDecorators } from '@nestjs/common';
import {
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
} from '@nestjs/swagger';
import {
  ApiAuth,
  ApiFailure,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';

export const GetBrandKitZipEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: "The chosen logo's brand kit, as a zip",
      description:
        'Streams a zip of the newest brand-kit files made from the LOGO section\'s chosen logo (a `brand-kit` task): favicon.ico, apple-touch-icon.png, icon-192.png, icon-512.png, og-image.png, logo.png, logo-mono.png and logo-inverse.png. With AUTH_MODE=oidc it needs the bearer token: a browser fetches it and saves the blob (docs/api.md, "Brand kit").',
      operationId: 'getBrandKitZip',
    }),
    ApiParam({
      name: 'id',
      description: 'The project id (UUID)',
      schema: { type: 'string', format: 'uuid' },
    }),
    ApiProduces('application/zip', 'application/json'),
    ApiResponse({
      status: 200,
      description: 'The zip, streamed',
      headers: {
        'Content-Disposition': {
          description:
            'attachment; filename="<project-name-slug>-brand-kit.zip"',
          schema: {
            type: 'string',
            example: 'attachment; filename="acme-rockets-brand-kit.zip"',
          },
        },
      },
      content: {
        'application/zip': { schema: { type: 'string', format: 'binary' } },
      },
    }),
    ApiFailure(
      'error',
      404,
      'No brand kit for the chosen logo',
      'No project with this id (of the caller\'s, with AUTH_MODE=oidc): `{error:"Project not found"}`; or no logo is chosen, or no brand-kit task has made a kit from the chosen one: `{error:"No brand kit for the chosen logo"}`',
    ),
    ApiRouteFailure(
      'error',
      'Failed to read brand kit',
      'The files could not be read',
    ),
    ApiAuth('error', 'required'),
  );
