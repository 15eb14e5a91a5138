import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { CallContext } from '../common/call-context';
import { Ctx } from '../common/http/request-context.decorator';
import { sendImage } from '../common/http/send-image';
import type { UrlSignature } from './asset-urls';
import { GetAssetContentEndpoint } from './assets.openapi';
import { AssetsService } from './assets.service';
import { AssetContentQuery } from './dto/asset-content-query.dto';
import { AssetRenditions } from './renditions/asset-renditions';

/** The assets written as UTF-8 text by a task (marketing copy, a landing page). */
const TEXT_TYPES = new Set(['text/html', 'application/json']);

/** A year: the bytes behind an asset URL never change. */
const IMMUTABLE_SECONDS = 31_536_000;

/**
 * An asset's bytes (and its renditions) never change, so a cache may keep
 * them as long as the URL works: a year when URLs are stable; until a
 * signed URL expires, and then only in the browser that was allowed to
 * load it.
 */
function cacheControlFor(secondsLeft: number | undefined): string {
  return secondsLeft === undefined
    ? `public, max-age=${IMMUTABLE_SECONDS}, immutable`
    : `private, max-age=${secondsLeft}, immutable`;
}

/**
 * The bytes behind an asset's url, for an `<img>` on any origin.
 * Deliberately without @Authenticated(): an `<img>` sends no Authorization
 * header, so with AUTH_MODE=oidc the signed URL is the proof (AssetUrls).
 */
@ApiTags('assets')
@Controller('api/projects/:id/assets/:assetId/content')
export class AssetContentController {
  constructor(
    private readonly assets: AssetsService,
    private readonly renditions: AssetRenditions,
  ) {}

  @Get()
  @GetAssetContentEndpoint()
  async get(
    @Param('id') id: string,
    @Param('assetId') assetId: string,
    @Query() query: UrlSignature,
    @Query() { size }: AssetContentQuery,
    @Ctx() context: CallContext,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const signature: UrlSignature = {
      expires: typeof query.expires === 'string' ? query.expires : undefined,
      signature:
        typeof query.signature === 'string' ? query.signature : undefined,
    };
    if (size !== undefined) {
      const rendition = await this.renditions.open(
        id,
        assetId,
        size,
        signature,
        context,
      );
      await sendImage(request, response, {
        etag: rendition.sha256,
        cacheControl: cacheControlFor(rendition.secondsLeft),
        mediaType: 'image/png',
        size: rendition.bytes.length,
        body: AssetRenditions.bodyOf(rendition),
      });
      return;
    }
    const { asset, body, secondsLeft } = await this.assets.open(
      id,
      assetId,
      signature,
      context,
    );
    await sendImage(request, response, {
      etag: asset.sha256,
      cacheControl: cacheControlFor(secondsLeft),
      mediaType: TEXT_TYPES.has(asset.contentType)
        ? `${asset.contentType}; charset=utf-8`
        : asset.contentType,
      size: asset.byteSize,
      body,
      sandboxed: !asset.contentType.startsWith('image/'),
    });
  }
}
