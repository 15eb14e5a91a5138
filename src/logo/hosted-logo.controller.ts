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
import { HostedLogos } from './hosted-logos';
import { LOGO_NOT_FOUND_MESSAGE } from './logo.constants';
import { GetHostedLogoEndpoint } from './logo.openapi';
import { sendImage } from '../common/http/send-image';

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
    await sendImage(request, response, {
      etag: image.id,
      // A shared cache has no business keeping a capability URL's answer.
      cacheControl: `private, max-age=${secondsLeft}`,
      mediaType: image.mediaType,
      size: image.size,
      body: image.body,
    });
  }
}
