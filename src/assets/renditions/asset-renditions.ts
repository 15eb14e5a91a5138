import { Injectable, Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Counter } from 'prom-client';
import type { RequestContext } from '../../common/http/request-context';
import { isWellFormedId } from '../../common/ids';
import { InputValidationException } from '../../failures/input-validation.error';
import { MetricsService } from '../../metrics/metrics.service';
import { AssetBytes } from '../asset-bytes/asset-bytes';
import { AssetUrls, type UrlSignature } from '../asset-urls';
import {
  AssetNotFoundException,
  AssetUrlRefusedException,
} from '../assets.errors';
import { AssetsRepository } from '../assets.repository';
import { sha256Of } from '../content-hash';
import type { AssetRecord } from '../dto/asset.dto';
import { AssetRenditionsRepository } from './asset-renditions.repository';
import { squarePng } from './image-work';

/** The raster types sharp decodes that a rendition is made from. */
export const RASTER_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
]);

/**
 * 400 {error:"Invalid input"}: `size` on an asset that is not a raster
 * image (JSON, HTML, an icon; SVG later): it names the `size` parameter as
 * the rule broken, as an out-of-range size does.
 */
export class NoRenditionException extends InputValidationException {
  constructor() {
    super([
      {
        path: ['size'],
        message: 'Only PNG, JPEG and WebP assets have renditions',
        code: 'custom',
      },
    ]);
  }
}

/** A rendition, ready to be sent. */
export interface OpenedRendition {
  asset: AssetRecord;
  sha256: string;
  bytes: Buffer;
  secondsLeft?: number;
}

/**
 * Square PNG renditions of image assets (GET …/content?size=N): made once,
 * from the kept bytes, in sharp's thread pool (two at a time), then kept in
 * asset_renditions and read from there. The URL rules are the asset's own:
 * a signed URL is checked before anything is looked up.
 */
@Injectable()
export class AssetRenditions {
  private readonly logger = new Logger(AssetRenditions.name);
  private readonly made: Counter;

  constructor(
    private readonly rows: AssetsRepository,
    private readonly renditions: AssetRenditionsRepository,
    private readonly bytes: AssetBytes,
    private readonly urls: AssetUrls,
    metrics: MetricsService,
  ) {
    this.made = new Counter({
      name: 'asset_renditions_made_total',
      help: 'Asset renditions (content?size=N) this process made; the ones already stored are not counted',
      registers: [metrics.registry],
    });
  }

  async open(
    projectId: string,
    assetId: string,
    size: number,
    signature: UrlSignature,
    context: Pick<RequestContext, 'signal'>,
  ): Promise<OpenedRendition> {
    if (!isWellFormedId(projectId) || !isWellFormedId(assetId)) {
      throw new AssetNotFoundException();
    }
    if (!this.urls.allows(projectId, signature)) {
      throw new AssetUrlRefusedException();
    }
    const asset = await this.rows.find(projectId, assetId);
    if (!asset) throw new AssetNotFoundException();
    if (!RASTER_TYPES.has(asset.contentType)) throw new NoRenditionException();
    const secondsLeft = this.urls.secondsLeft(signature);
    const stored = await this.renditions.find(assetId, size);
    if (stored) return { asset, ...stored, secondsLeft };
    const original = await this.readWhole(asset, context.signal);
    const bytes = await squarePng(original, size);
    const sha256 = await sha256Of(bytes);
    this.made.inc();
    if (!(await this.renditions.insert(assetId, size, { sha256, bytes }))) {
      throw new AssetNotFoundException();
    }
    return { asset, sha256, bytes, secondsLeft };
  }

  /** An image asset's kept bytes, whole: sharp decodes a buffer. */
  async readWhole(asset: AssetRecord, signal?: AbortSignal): Promise<Buffer> {
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      signal,
    );
    if (!body) {
      this.logger.error(`Asset ${asset.id} has no stored bytes`);
      throw new AssetNotFoundException();
    }
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** A rendition's bytes as the stream sendImage takes. */
  static bodyOf(rendition: OpenedRendition): Readable {
    return Readable.from([rendition.bytes]);
  }
}
