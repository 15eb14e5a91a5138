import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Authenticated } from '../auth/authenticated.decorator';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { GetBrandKitZipEndpoint } from './brand-kit.openapi';
import { BrandKitService } from './brand-kit.service';

@ApiTags('brand-kit')
@Authenticated()
@Controller('api/projects/:id')
export class BrandKitController {
  constructor(private readonly kits: BrandKitService) {}

  @Get('brand-kit.zip')
  @GetBrandKitZipEndpoint()
  async zip(
    @Param('id') id: string,
    @Ctx() context: CallContext,
    @Res() response: Response,
  ): Promise<void> {
    const { filename, body } = await this.kits.zip(id, context);
    response.status(200);
    response.setHeader('Content-Type', 'application/zip');
    response.setHeader(
      'Content-Disposition',
      `attachment; filename="${filename}"`,
    );
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
    // Headers are gone once bytes flow: a failure can only cut the
    // connection, and the zip's missing central directory tells the client.
    await pipeline(body, response).catch(() => response.destroy());
  }
}
