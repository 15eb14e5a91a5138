import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { RequestContext } from '../common/http/request-context';
import { Ctx } from '../common/http/request-context.decorator';
import { sendImage } from '../common/http/send-image';
import type { UrlSignature } from './asset-urls';
import { GetAssetContentEndpoint } from './assets.openapi';
import { AssetsService } from './assets.service';

/** The assets written as UTF-8 text by a task (marketing copy, a landing page). */
const TEXT_TYPES = new Set(['text/html', 'application/json']);

/** A year: the bytes behind an asset URL never change. */
const IMMUTABLE_SECONDS = 31_536_000;

/**
 * The bytes behind an asset's url, for an `<img>` on any origin.
 * Deliberately without @Authenticated(): an `<img>` sends no Authorization
 * header, so with AUTH_MODE=oidc the signed URL is the proof (AssetUrls).
 */
@ApiTags('assets')
@Controller('api/projects/:id/assets/:assetId/content')
export class AssetContentController {
  constructor(private readonly assets: AssetsService) {}

  @Get()
  @GetAssetContentEndpoint()
  async get(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @Query() query: UrlSignature,
    @Ctx() context: RequestContext,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { asset, body, secondsLeft } = await this.assets.open(
      id,
      assetId,
      {
        expires: typeof query.expires === 'string' ? query.expires : undefined,
        signature:
          typeof query.signature === 'string' ? query.signature : undefined,
      },
      context,
    );
    await sendImage(request, response, {
      etag: asset.sha256,
      // An asset's bytes never change, so a cache may keep them as long as
      // the URL works: a year when URLs are stable; until a signed URL
      // expires, and then only in the browser that was allowed to load it.
      cacheControl:
        secondsLeft === undefined
          ? `public, max-age=${IMMUTABLE_SECONDS}, immutable`
          : `private, max-age=${secondsLeft}, immutable`,
      mediaType: TEXT_TYPES.has(asset.contentType)
        ? `${asset.contentType}; charset=utf-8`
        : asset.contentType,
      size: asset.byteSize,
      body,
      sandboxed: !asset.contentType.startsWith('image/'),
    });
  }
}
