import {
  Controller,
  Get,
  NotFoundException,
  Param,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiHeader,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { LogoErrorResponseDto } from '../failures/error-responses.dto';
import { FailureMessage } from '../failures/failure-message.decorator';
import { HostedLogos } from './hosted-logos';
import { LOGO_NOT_FOUND_MESSAGE } from './logo.constants';
import { parseEntityTags, weakMatch } from '../common/http/entity-tags';

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

/**
 * The logos this service hosts (see HostedLogos). Deliberately without
 * @Authenticated(): an `<img>` sends no Authorization header, so the
 * unguessable URL is the capability, as a provider's signed URL would be.
 */
@ApiTags('logo')
@Controller('api/ai/logos')
@FailureMessage('Failed to read logo', { envelope: 'success-flag' })
export class HostedLogoController {
  constructor(private readonly logos: HostedLogos) {}

  @Get(':file')
  @ApiOperation({
    summary: 'A generated logo hosted by this service',
    description:
      'The URL a logo request answered when the image API sent the image itself (GPT image models). Needs no credentials even with AUTH_MODE=oidc: the URL, with its 128-bit random id, is the capability. Valid for LOGO_URL_TTL_S after generation, then 404.',
    operationId: 'getHostedLogo',
  })
  @ApiParam({
    name: 'file',
    description: 'The id and extension, as the logoUrl gave them',
    schema: {
      type: 'string',
      pattern: '^[0-9a-f]{32}\\.(png|jpg|webp)$',
      example: '5f0c6e1d2b3a49e8a7c6d5e4f3a2b1c0.png',
    },
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'The ETag of an earlier answer: 304 without a body',
    schema: { type: 'string', example: '"5f0c6e1d2b3a49e8a7c6d5e4f3a2b1c0"' },
  })
  @ApiProduces('image/png', 'image/jpeg', 'image/webp', 'application/json')
  @ApiResponse({
    status: 200,
    description: 'The image, byte for byte as the image API sent it',
    headers: IMAGE_HEADERS,
    content: {
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/jpeg': { schema: { type: 'string', format: 'binary' } },
      'image/webp': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiResponse({
    status: 304,
    description: 'Not modified: the ETag sent is this image (no body)',
    headers: IMAGE_HEADERS,
  })
  @ApiResponse({
    status: 404,
    description:
      'No such logo: the id is unknown, malformed or its LOGO_URL_TTL_S has passed',
    type: LogoErrorResponseDto,
    example: { success: false, error: LOGO_NOT_FOUND_MESSAGE },
  })
  @ApiResponse({
    status: 500,
    description: 'The logo could not be read',
    type: LogoErrorResponseDto,
    example: { success: false, error: 'Failed to read logo' },
  })
  async get(
    @Param('file') file: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const image = await this.logos.open(file);
    if (!image) throw new NotFoundException(LOGO_NOT_FOUND_MESSAGE);
    const secondsLeft = Math.max(
      0,
      Math.floor((image.expiresAt - Date.now()) / 1000),
    );
    const etag = `"${image.id}"`;
    response.setHeader('ETag', etag);
    // A shared cache has no business keeping a capability URL's answer.
    response.setHeader('Cache-Control', `private, max-age=${secondsLeft}`);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    // A frontend on another origin shows it in an <img>.
    response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    const condition = parseEntityTags(request.headers['if-none-match']);
    if (condition !== undefined && weakMatch(condition, image.id)) {
      image.body.destroy();
      response.status(304).end();
      return;
    }
    response.status(200);
    response.setHeader('Content-Type', image.mediaType);
    response.setHeader('Content-Length', String(image.size));
    // HEAD gets the headers only: no reason to read the bytes.
    if (request.method === 'HEAD') {
      image.body.destroy();
      response.end();
      return;
    }
    // Read a chunk at a time as the client takes them; a client that
    // leaves ends the reading.
    await pipeline(image.body, response).catch(() => {
      // Headers are gone: a cut connection is all that can be said, and the
      // Content-Length tells the client the image is incomplete.
      response.destroy();
    });
  }
}
