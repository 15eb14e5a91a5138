import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { parseEntityTags, weakMatch } from '../common/http/entity-tags';
import type { UrlSignature } from './asset-urls';
import { GetAssetContentEndpoint } from './assets.openapi';
import { AssetsService } from './assets.service';

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
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { asset, body, secondsLeft } = await this.assets.open(id, assetId, {
      expires: typeof query.expires === 'string' ? query.expires : undefined,
      signature:
        typeof query.signature === 'string' ? query.signature : undefined,
    });
    response.setHeader('ETag', `"${asset.sha256}"`);
    // An asset's bytes never change, so a cache may keep them as long as
    // the URL works: a year when URLs are stable; until a signed URL
    // expires, and then only in the browser that was allowed to load it.
    response.setHeader(
      'Cache-Control',
      secondsLeft === undefined
        ? `public, max-age=${IMMUTABLE_SECONDS}, immutable`
        : `private, max-age=${secondsLeft}, immutable`,
    );
    response.setHeader('X-Content-Type-Options', 'nosniff');
    // A frontend on another origin shows it in an <img>.
    response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    const condition = parseEntityTags(request.headers['if-none-match']);
    if (condition !== undefined && weakMatch(condition, asset.sha256)) {
      body.destroy();
      response.status(304).end();
      return;
    }
    response.status(200);
    response.setHeader('Content-Type', asset.contentType);
    response.setHeader('Content-Length', String(asset.byteSize));
    if (request.method === 'HEAD') {
      body.destroy();
      response.end();
      return;
    }
    // A chunk at a time, as the client takes them; a client that leaves
    // ends the reading.
    await pipeline(body, response).catch(() => {
      // Headers are gone: a cut connection is all that can be said, and
      // the Content-Length tells the client the bytes are incomplete.
      response.destroy();
    });
  }
}
