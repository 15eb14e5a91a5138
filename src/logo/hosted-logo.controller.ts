import {
  Controller,
  Get,
  NotFoundException,
  Param,
  Req,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { HostedLogos } from './hosted-logos';
import { LOGO_NOT_FOUND_MESSAGE } from './logo.constants';
import { GetHostedLogoEndpoint } from './logo.openapi';
import { parseEntityTags, weakMatch } from '../common/http/entity-tags';

/**
 * The logos this service hosts (see HostedLogos). Deliberately without
 * @Authenticated(): an `<img>` sends no Authorization header, so the
 * unguessable URL is the capability, as a provider's signed URL would be.
 */
@ApiTags('logo')
@Controller('api/ai/logos')
export class HostedLogoController {
  constructor(private readonly logos: HostedLogos) {}

  @Get(':file')
  @GetHostedLogoEndpoint()
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
