import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import { sendAnswer } from '../common/http/answer';
import { publicBaseUrl } from '../common/http/public-base-url';
import { addRequestLogFields } from '../logging/request-log';
import {
  LogoErrorResponseDto,
  LogoValidationErrorResponseDto,
  RETRY_AFTER_HEADER,
} from '../failures/error-responses.dto';
import { ClientAbortSignal } from '../common/http/client-abort-signal.decorator';
import { ClientIp } from '../common/http/client-ip.decorator';
import { FailureMessage } from '../failures/failure-message.decorator';
import { JSON_CONTENT_TYPE } from '../common/http/json-text';
import {
  ApiIdempotencyKey,
  REPLAYED_HEADER,
} from '../docs/conditional-headers.docs';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyKey } from '../idempotency/idempotency-key.decorator';
import { GenerateLogoDto } from './dto/generate-logo.dto';
import {
  GenerateLogoResponseDto,
  LogoGeneratorInfoDto,
} from './dto/logo-responses.dto';
import {
  KEY_MISSING_MESSAGE,
  LOGO_BUSY_MESSAGE,
  LOGO_GENERIC_FAILURE,
  LOGO_MAX_COLORS,
  LOGO_RATE_LIMITED_MESSAGE,
  LOGO_STYLES,
  LOGO_SUCCESS_MESSAGE,
} from './logo.constants';
import { Authenticated } from '../auth/authenticated.decorator';
import { CurrentCaller } from '../auth/current-caller.decorator';
import type { Caller } from '../common/http/request-context';
import { LogoService } from './logo.service';

@ApiTags('logo')
@Controller('api/ai/generate-logo')
@Authenticated()
// Failures are {success:false, error}, where error explains the failure when it
// can (key missing, upstream message, unreadable body), else the fixed text.
@FailureMessage(LOGO_GENERIC_FAILURE, {
  envelope: 'success-flag',
  exposePublicErrors: true,
})
export class LogoController {
  private readonly configuredBaseUrl: string | undefined;

  constructor(
    private readonly logo: LogoService,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.configuredBaseUrl = config.publicBaseUrl;
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Generate one logo image',
    description:
      'Validation first, then the key, a place in line (503 when full), the client rate limit (429), and the upstream call with retries, within IMAGE_API_DEADLINE_MS.',
    operationId: 'generateLogo',
  })
  @ApiBody({
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
  })
  @ApiResponse({
    status: 200,
    description:
      "The temporary URL of the generated image: the image API's own, or, when it answered the image itself (GPT image models), one of this service's under /api/ai/logos valid for LOGO_URL_TTL_S (or, with `Idempotent-Replayed: true`, the answer first given for this Idempotency-Key)",
    type: GenerateLogoResponseDto,
    headers: REPLAYED_HEADER,
    example: {
      success: true,
      logoUrl: 'https://images.example.com/generated/logo-123.png',
      message: LOGO_SUCCESS_MESSAGE,
    },
  })
  @ApiResponse({
    status: 400,
    description:
      'A validation rule failed (checked before anything else), or, when the image is to be hosted here without PUBLIC_BASE_URL, the Host header is not a host',
    type: LogoValidationErrorResponseDto,
    example: {
      success: false,
      error: 'Invalid input',
      details: [
        {
          path: ['style'],
          message: `Invalid enum value. Expected ${LOGO_STYLES.map((s) => `'${s}'`).join(' | ')}`,
          code: 'invalid_enum_value',
        },
      ],
    },
  })
  @ApiResponse({
    status: 413,
    description: 'The body is larger than BODY_LIMIT (default 1 MB)',
    type: LogoErrorResponseDto,
    example: { success: false, error: 'Request body is too large' },
  })
  @ApiResponse({
    status: 408,
    description:
      'A body over 64 KB did not arrive within 10 s of its turn to be read (large bodies are read one at a time); the connection is closed',
    type: LogoErrorResponseDto,
    example: {
      success: false,
      error: 'Request body was not received in time',
    },
  })
  @ApiResponse({
    status: 415,
    description:
      'CORS_ORIGINS is set and the Content-Type is one a browser sends without a CORS preflight (text/plain, application/x-www-form-urlencoded, multipart/form-data) or none',
    type: LogoErrorResponseDto,
    example: { success: false, error: 'Unsupported media type' },
  })
  @ApiResponse({
    status: 429,
    description:
      'The client is over its rate limit (LOGO_RATE_LIMIT per LOGO_RATE_WINDOW_S)',
    type: LogoErrorResponseDto,
    headers: RETRY_AFTER_HEADER,
    example: { success: false, error: LOGO_RATE_LIMITED_MESSAGE },
  })
  @ApiResponse({
    status: 500,
    description:
      'Generation failed: the key is missing, the upstream error message (or "Failed to generate logo"), an invalid upstream response, a timeout or the deadline, an unreachable upstream, or the JSON parse error of an unreadable body',
    type: LogoErrorResponseDto,
    example: { success: false, error: KEY_MISSING_MESSAGE },
  })
  @ApiResponse({
    status: 503,
    description:
      "This instance's line of logo requests is full (IMAGE_API_QUEUE_LIMIT)",
    type: LogoErrorResponseDto,
    headers: RETRY_AFTER_HEADER,
    example: { success: false, error: LOGO_BUSY_MESSAGE },
  })
  @ApiIdempotencyKey('success-flag')
  @Header('Content-Type', JSON_CONTENT_TYPE)
  async generate(
    @Body() request: GenerateLogoDto,
    @ClientIp() client: string,
    @ClientAbortSignal() signal: AbortSignal,
    @IdempotencyKey('POST /api/ai/generate-logo')
    key: IdempotentRequest | undefined,
    @CurrentCaller() caller: Caller | undefined,
    @Req() incoming: Request,
    @Res({ passthrough: true }) response: Response,
  ) {
    // The rate limit counts per proven user, or per address without one.
    const budget = caller ? `user:${caller.userId}` : client;
    const answer = await this.logo.respond(
      request,
      {
        client: budget,
        signal,
        baseUrl: () => publicBaseUrl(this.configuredBaseUrl, incoming),
        onUsage: (usage) =>
          addRequestLogFields(response, {
            imageInputTokens: usage.inputTokens,
            imageOutputTokens: usage.outputTokens,
          }),
      },
      key,
    );
    return sendAnswer(response, answer);
  }

  @Get()
  @ApiOperation({
    summary: 'Generator information',
    operationId: 'getLogoGeneratorInfo',
  })
  @ApiResponse({
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
  })
  info() {
    return this.logo.describe();
  }
}
