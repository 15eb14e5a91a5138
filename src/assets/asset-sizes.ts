import {
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import {
  readImageDimensions,
  type ImageDimensions,
} from '../image-store/image-dimensions';
import { sniffImageType } from '../image-store/image-type';
import { AssetBytes } from './asset-bytes/asset-bytes';
import { AssetsRepository } from './assets.repository';
import { decode, inImageTurn } from './renditions/image-work';

/** No size: SVG, icons, text, or bytes whose header cannot be read. */
const NO_SIZE = { width: null, height: null } as const;

/**
 * The width and height of a PNG, JPEG or WebP as its header states them
 * (nothing is decoded); nulls for any other type and for a header that
 * cannot be read.
 */
export function sizeOfImage(
  bytes: Buffer,
): { width: number; height: number } | typeof NO_SIZE {
  const type = sniffImageType(bytes);
  const size = type && readImageDimensions(bytes, type);
  return size ?? NO_SIZE;
}

/** Rows read per batch, and the pause between batches. */
export const BACKFILL_BATCH = 20;
const BACKFILL_PAUSE_MS = 200;

/**
 * Gives image assets kept before sizes were recorded their width and
 * height, read from their stored bytes: after start-up, in the
 * background, BACKFILL_BATCH rows at a time with a pause between batches,
 * one image at a time, so that neither the database nor the event loop
 * notice. The header says the size; sharp reads it (its header only)
 * where the header walk cannot. Every replica may run it: a row another
 * one sized first is left as it is. Ends when no unsized row is left
 * after the last one it saw (an unreadable image is passed, not retried
 * until the next start).
 */
@Injectable()
export class AssetSizesBackfill
  implements OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(AssetSizesBackfill.name);
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;

  constructor(
    private readonly rows: AssetsRepository,
    private readonly bytes: AssetBytes,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.run().then(
      () => undefined,
      (error: unknown) => {
        if (this.abort.signal.aborted) return;
        this.logger.warn(
          `Reading the sizes of older image assets stopped (it resumes at the next start): ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  /** Every unsized image after `after`, batch by batch; the count sized. */
  async run(after = ''): Promise<number> {
    let sized = 0;
    let cursor = after;
    for (;;) {
      if (this.abort.signal.aborted) return sized;
      const batch = await this.rows.unsized(cursor, BACKFILL_BATCH);
      for (const asset of batch) {
        if (this.abort.signal.aborted) return sized;
        const size = await this.sizeOf(asset);
        if (size) {
          await this.rows.setSize(asset.id, size);
          sized++;
        }
      }
      if (batch.length < BACKFILL_BATCH) return sized;
      cursor = batch[batch.length - 1].id;
      await new Promise((resolve) => setTimeout(resolve, BACKFILL_PAUSE_MS));
    }
  }

  private async sizeOf(asset: {
    id: string;
    projectId: string;
    byteSize: number;
  }): Promise<ImageDimensions | undefined> {
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      this.abort.signal,
    );
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const size = sizeOfImage(bytes);
    if (size.width !== null) return size;
    return inImageTurn(async () => {
      const metadata = await decode(bytes)
        .metadata()
        .catch(() => undefined);
      return metadata?.width && metadata.height
        ? { width: metadata.width, height: metadata.height }
        : undefined;
    });
  }
}
