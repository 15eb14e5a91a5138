import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiResponse,
} from '@nestjs/swagger';
import { ApiImageBytes } from '../docs/image-response.openapi';
import {
  ApiIdempotencyKey,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.openapi';
import {
  ApiAuth,
  ApiBodyFailures,
  ApiFailure,
  ApiInvalidInput,
  ApiRetryLater,
  ApiRouteFailure,
} from '../failures/failure-responses.openapi';
import { GenerateLogoDto } from './dto/generate-logo.dto';
import {
  GenerateLogoResponseDto,
  LogoGeneratorInfoDto,
} from './dto/logo-responses.dto';
import {
  HOSTED_LOGO_FAILURE,
  KEY_MISSING_MESSAGE,
  LOGO_BUSY_MESSAGE,
  LOGO_GENERIC_FAILURE,
  LOGO_MAX_COLORS,
  LOGO_NOT_FOUND_MESSAGE,
  LOGO_RATE_LIMITED_MESSAGE,
  LOGO_STYLES,
  LOGO_SUCCESS_MESSAGE,
} from './logo.constants';

/**
 * The OpenAPI description of each logo route, one composite decorator per
 * route. Logo routes fail with `{success:false, error}`.
 */

export const GenerateLogoEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Generate one logo image',
      description:
        'Validation first, then the key, a place in line (503 when full), the client rate limit (429), and the upstream call with retries, within IMAGE_API_DEADLINE_MS.',
      operationId: 'generateLogo',
    }),
    ApiBody({
      type: GenerateLogoDto,
      examples: {
        logo: {
          summary: 'A logo request',
          value: {
            projectId: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
            companyName: 'Acme',
            style: 'modern',
            colors: ['#0044ff', 'white'],
            industry: 'logistics',
            mood: ['bold', 'friendly'],
            description: 'Fast parcel delivery',
          },
        },
      },
    }),
    ApiResponse({
      status: 200,
      description:
        "The temporary URL of the generated image: the image API's own, or, when it answered the image itself (GPT image models), one of this service's under /api/ai/logos valid for LOGO_URL_TTL_S (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key)",
      type: GenerateLogoResponseDto,
      headers: REPLAYED_HEADER,
      example: {
        success: true,
        logoUrl: 'https://images.example.com/generated/logo-123.png',
        message: LOGO_SUCCESS_MESSAGE,
        expiresAt: '2026-11-29T04:39:09.000Z',
      },
    }),
    ApiInvalidInput(
      'success-flag',
      'A validation rule failed (checked before anything else), or, when the image is to be hosted here without PUBLIC_BASE_URL, the Host header is not a host',
      {
        path: ['style'],
        message: `Invalid enum value. Expected ${LOGO_STYLES.map((s) => `'${s}'`).join(' | ')}`,
        code: 'invalid_enum_value',
      },
    ),
    ApiBodyFailures('success-flag'),
    ApiRetryLater(
      'success-flag',
      429,
      LOGO_RATE_LIMITED_MESSAGE,
      'The client is over its rate limit (LOGO_RATE_LIMIT per LOGO_RATE_WINDOW_S)',
    ),
    // The error explains the failure when it can (key missing, upstream
    // message, unreadable body), else it is the fixed text.
    ApiRouteFailure(
      'success-flag',
      LOGO_GENERIC_FAILURE,
      'Generation failed: the key is missing, the upstream error message (or "Failed to generate logo"), an invalid upstream response, a timeout or the deadline, an unreachable upstream, or the JSON parse error of an unreadable body',
      { exposePublicErrors: true, example: KEY_MISSING_MESSAGE },
    ),
    ApiIdempotencyKey('success-flag'),
    ApiAuth('success-flag', 'required', {
      error: LOGO_BUSY_MESSAGE,
      description:
        "This instance's line of logo requests is full (IMAGE_API_QUEUE_LIMIT)",
    }),
  );

export const LogoGeneratorInfoEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Generator information',
      operationId: 'getLogoGeneratorInfo',
    }),
    ApiResponse({
      status: 200,
      description:
        'Whether the image API key is configured, and the request vocabulary',
      type: LogoGeneratorInfoDto,
      example: {
        service: 'Image-model logo generator',
        status: 'configured',
        message: 'Logo generator is ready',
        supportedStyles: [...LOGO_STYLES],
        maxColors: LOGO_MAX_COLORS,
      },
    }),
    ApiAuth('success-flag', 'required'),
  );

const IMAGE_HEADERS = {
  'Cache-Control': {
    description:
      '`private, max-age=<seconds left>`: no cache keeps the image past its expiry',
    schema: { type: 'string', example: 'private, max-age=3599' },
  },
  ETag: {
    description: 'The image never changes: its id as a strong entity tag',
    schema: { type: 'string', example: '"5f0c6e1d2b3a49e8a7c6d5e4f3a2b1c0"' },
  },
};

export const GetHostedLogoEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'A generated logo hosted by this service',
      description:
        'The URL a logo request answered when the image API sent the image itself (GPT image models). Needs no credentials even with AUTH_MODE=oidc: the URL, with its 128-bit random id, is the capability. Valid for LOGO_URL_TTL_S after generation, then 404.',
      operationId: 'getHostedLogo',
    }),
    ApiParam({
      name: 'file',
      description: 'The id and extension, as the logoUrl gave them',
      schema: {
        type: 'string',
        pattern: '^[0-9a-f]{32}\\.(png|jpg|webp)$',
        example: '5f0c6e1d2b3a49e8a7c6d5e4f3a2b1c0.png',
      },
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description: 'The ETag of an earlier answer: 304 without a body',
      schema: { type: 'string', example: '"5f0c6e1d2b3a49e8a7c6d5e4f3a2b1c0"' },
    }),
    ApiImageBytes(
      {
        ok: 'The image, byte for byte as the image API sent it',
        notModified: 'Not modified: the ETag sent is this image (no body)',
      },
      IMAGE_HEADERS,
    ),
    ApiFailure(
      'success-flag',
      404,
      LOGO_NOT_FOUND_MESSAGE,
      'No such logo: the id is unknown, malformed or its LOGO_URL_TTL_S has passed',
    ),
    ApiRouteFailure(
      'success-flag',
      HOSTED_LOGO_FAILURE,
      'The logo could not be read',
    ),
    // An `<img>` sends no Authorization header: the unguessable URL is the
    // capability, as a provider's signed URL would be.
    ApiAuth('success-flag', 'public'),
  );
