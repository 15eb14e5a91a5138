import { Inject, Injectable, Logger } from '@nestjs/common';
import { Readable } from 'node:stream';
import { Counter, Gauge } from 'prom-client';
import type { CallContext } from '../../common/call-context';
import { isWellFormedId } from '../../common/ids';
import { InputValidationException } from '../../failures/input-validation.error';
import { MetricsService } from '../../metrics/metrics.service';
import { AssetBytes } from '../asset-bytes/asset-bytes';
import { AssetUrls, type UrlSignature } from '../asset-urls';
import { assetsConfig, type AssetsConfig } from '../assets.config';
import {
  AssetNotFoundException,
  AssetUrlRefusedException,
} from '../assets.errors';
import { AssetsRepository } from '../assets.repository';
import { sha256Of } from '../content-hash';
import type { AssetRecord } from '../dto/asset.dto';
import {
  AssetRenditionsRepository,
  type StoredRendition,
} from './asset-renditions.repository';
import { DRAWN_KINDS } from '../asset-file-names';
import { drawnRendition } from './drawn-rendition';
import { inImageTurn, squarePng } from './image-work';
import { RecentRenditions } from './recent-renditions';
import { ladderStepFor } from './rendition-ladder';
import { svgSquarePng } from './svg-png';
import { RenditionLine } from './rendition-line';

/**
 * Bytes of renditions kept in memory for requests that come together; a
 * 1024-pixel rendition of a noisy image is about 3 MB.
 */
const RECENT_RENDITIONS_BYTES = 16 * 1024 * 1024;

/** The raster types sharp decodes that a rendition is made from. */
export const RASTER_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
]);

/** SVG, drawn by resvg (svg-png.ts); kept SVGs were rebuilt safe. */
const SVG_TYPE = 'image/svg+xml';

/**
 * 400 {error:"Invalid input"}: `size` on an asset that is not an image
 * or a wireframe (other JSON, HTML, an .ico): it names the `size`
 * parameter as
 * the rule broken, as an out-of-range size does.
 */
export class NoRenditionException extends InputValidationException {
  constructor() {
    super([
      {
        path: ['size'],
        message:
          'Only PNG, JPEG, WebP and SVG assets and wireframes have renditions',
        code: 'custom',
      },
    ]);
  }
}

/**
 * 400 {error:"Invalid input"}: `size` on an image that cannot be decoded
 * within the pixel limit (a header claiming 50,000×50,000, or a broken
 * file): the rendition is refused instead of failing with a 500.
 */
export class UnrenderableImageException extends InputValidationException {
  constructor() {
    super([
      {
        path: ['size'],
        message:
          'This image cannot be rendered: it is unreadable or larger than the pixel limit',
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
  /** Pixels a side: the ladder step that serves the size asked for. */
  size: number;
  secondsLeft?: number;
}

/**
 * Square PNG renditions of image assets (GET …/content?size=N), in the
 * sizes of a fixed ladder (a size between steps is served by the next one
 * up): made once per asset and step, from the kept bytes, in sharp's thread
 * pool (two at a time), then kept in asset_renditions and read from there.
 * What is still to be made waits in a bounded line that holds ids, not
 * images, and drops work whose clients have all left. The URL rules are
 * the asset's own: a signed URL is checked before anything is looked up.
 */
@Injectable()
export class AssetRenditions {
  private readonly logger = new Logger(AssetRenditions.name);
  private readonly made: Counter;
  private readonly line: RenditionLine<StoredRendition>;
  private readonly recent = new RecentRenditions(RECENT_RENDITIONS_BYTES);

  constructor(
    private readonly rows: AssetsRepository,
    private readonly renditions: AssetRenditionsRepository,
    private readonly bytes: AssetBytes,
    private readonly urls: AssetUrls,
    @Inject(assetsConfig.KEY) config: AssetsConfig,
    metrics: MetricsService,
  ) {
    this.made = new Counter({
      name: 'asset_renditions_made_total',
      help: 'Asset renditions (content?size=N) this process made; the ones already stored are not counted',
      registers: [metrics.registry],
    });
    const dropped = new Counter({
      name: 'asset_renditions_dropped_total',
      help: 'Renditions not made because every client waiting for them had left before their turn',
      registers: [metrics.registry],
    });
    this.line = new RenditionLine(config.renditions, () => dropped.inc());
    const line = this.line;
    new Gauge({
      name: 'asset_renditions_in_line',
      help: 'Renditions waiting to be made or being made in this process',
      registers: [metrics.registry],
      collect() {
        this.set(line.size);
      },
    });
  }

  async open(
    projectId: string,
    assetId: string,
    size: number,
    signature: UrlSignature,
    context: Pick<CallContext, 'signal' | 'clientKey'>,
  ): Promise<OpenedRendition> {
    if (!isWellFormedId(projectId) || !isWellFormedId(assetId)) {
      throw new AssetNotFoundException();
    }
    if (!this.urls.allows(projectId, signature)) {
      throw new AssetUrlRefusedException();
    }
    const asset = await this.rows.find(projectId, assetId);
    if (!asset) throw new AssetNotFoundException();
    if (
      !RASTER_TYPES.has(asset.contentType) &&
      asset.contentType !== SVG_TYPE &&
      !DRAWN_KINDS.has(asset.kind)
    ) {
      throw new NoRenditionException();
    }
    const secondsLeft = this.urls.secondsLeft(signature);
    const step = ladderStepFor(size);
    const key = `${assetId}:${step}`;
    const rendition =
      (await this.recent.get(key, () => this.renditions.find(assetId, step))) ??
      (await this.line.request(
        key,
        context.clientKey,
        context.signal,
        (wanted) => this.make(asset, step, wanted),
      ));
    return { asset, ...rendition, size: step, secondsLeft };
  }

  /**
   * Makes and keeps the rendition once its image turn has come, unless
   * nobody waits for it any more; the original is read only then.
   */
  private async make(
    asset: AssetRecord,
    step: number,
    wanted: () => boolean,
  ): Promise<StoredRendition | undefined> {
    const bytes = await inImageTurn(async () => {
      if (!wanted()) return undefined;
      const original = await this.readWhole(asset);
      const made = DRAWN_KINDS.has(asset.kind)
        ? drawnRendition(original, step)
        : asset.contentType === SVG_TYPE
          ? svgSquarePng(original, step)
          : squarePng(original, step);
      return made.catch((error: unknown) => {
        this.logger.warn(
          `Asset ${asset.id} cannot be rendered: ${error instanceof Error ? error.message : String(error)}`,
        );
        throw new UnrenderableImageException();
      });
    });
    if (!bytes) return undefined;
    const rendition = { sha256: await sha256Of(bytes), bytes };
    this.made.inc();
    if (!(await this.renditions.insert(asset.id, step, rendition))) {
      throw new AssetNotFoundException();
    }
    this.recent.keep(`${asset.id}:${step}`, rendition);
    return rendition;
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
