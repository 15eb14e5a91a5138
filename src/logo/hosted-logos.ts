import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import {
  ImageBlobStore,
  type OpenedImage,
} from '../image-store/image-blob-store';
import { extensionOf, type ImageType } from '../image-store/image-type';
import { annotate, inSpan } from '../tracing/spans';

/** Where hosted logos are served, under the service's base URL. */
export const HOSTED_LOGOS_PATH = '/api/ai/logos';

/** `<32 hex digits>.<png|jpg|webp>` */
const FILE_NAME = /^([0-9a-f]{32})\.(png|jpg|webp)$/;

/**
 * Logos the image API answered as bytes, kept for LOGO_URL_TTL_S behind a
 * URL of this service's own: the URL is the only way to reach one.
 */
@Injectable()
export class HostedLogos {
  private readonly ttlMs: number;

  constructor(
    private readonly store: ImageBlobStore,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.ttlMs = config.urlTtlSeconds * 1000;
  }

  /** Stores the image and returns its absolute URL under `baseUrl`. */
  host(bytes: Buffer, type: ImageType, baseUrl: string): Promise<string> {
    return inSpan(
      'logo.image.store',
      { attributes: { 'logo.image.bytes': bytes.length } },
      async (span) => {
        const stored = await this.store.put(
          bytes,
          type.mediaType,
          Date.now() + this.ttlMs,
        );
        annotate(span, { 'logo.image.media_type': type.mediaType });
        return `${baseUrl}${HOSTED_LOGOS_PATH}/${stored.id}.${type.extension}`;
      },
    );
  }

  /**
   * The live logo named `file` (its id and the extension it was stored
   * with), or null: an unknown, expired or malformed name looks the same.
   */
  async open(file: string): Promise<OpenedImage | null> {
    const match = FILE_NAME.exec(file);
    if (!match) return null;
    const image = await this.store.open(match[1]);
    if (image && extensionOf(image.mediaType) !== match[2]) {
      // Nothing has been read yet: the stream only reads when consumed.
      image.body.destroy();
      return null;
    }
    return image;
  }
}
