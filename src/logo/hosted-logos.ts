import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from './logo.config';
import {
  ImageBlobStore,
  type OpenedImage,
} from '../image-store/image-blob-store';
import { extensionOf, sniffImageType } from '../image-store/image-type';
import { isWithinPixelLimit } from '../image-store/image-dimensions';
import type { ImageOrigin } from '../image-store/stored-images.repository';
import type { LogoImage } from './generated-logo';
import { annotate, inSpan } from '../tracing/spans';

/** Where hosted logos are served, under the service's base URL. */
export const HOSTED_LOGOS_PATH = '/api/ai/logos';

/** `<32 hex digits>.<png|jpg|webp|svg>` */
const FILE_NAME = /^([0-9a-f]{32})\.(png|jpg|webp|svg)$/;

/**
 * The file name (`<id>.<ext>`) of a hosted logo URL this service made
 * under `baseUrl`, given whole or as its path; undefined for any other
 * URL (another origin, a query, a fragment, another path).
 */
export function hostedLogoFileOf(
  logoUrl: string,
  baseUrl: string,
): string | undefined {
  const base = new URL(baseUrl);
  // Only this origin's URLs, or a path (a protocol-relative //host/… is
  // another origin and fails the comparison below).
  if (!logoUrl.startsWith('/') && !logoUrl.startsWith(`${base.origin}/`)) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(logoUrl, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base.origin || url.search !== '' || url.hash !== '') {
    return undefined;
  }
  const prefix = `${base.pathname.replace(/\/$/, '')}${HOSTED_LOGOS_PATH}/`;
  if (!url.pathname.startsWith(prefix)) return undefined;
  const file = url.pathname.slice(prefix.length);
  return FILE_NAME.test(file) ? file : undefined;
}

/**
 * Logos the image API answered as bytes, kept for LOGO_URL_TTL_S behind a
 * URL of this service's own: the URL is the only way to reach one.
 */
@Injectable()
export class HostedLogos {
  private readonly ttlMs: number;
  private readonly maxPixels: number;

  constructor(
    private readonly store: ImageBlobStore,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.ttlMs = config.urlTtlSeconds * 1000;
    this.maxPixels = config.imageApi.maxImagePixels;
  }

  /**
   * Stores the image, with the prompt and model that made it (so that
   * keeping it later needs no second call), and returns its absolute URL
   * under `baseUrl` with the moment it expires (the store's own expiry:
   * from then on the URL answers 404).
   */
  host(
    image: LogoImage,
    baseUrl: string,
  ): Promise<{ url: string; expiresAt: Date }> {
    const { bytes, type } = image;
    return inSpan(
      'logo.image.store',
      { attributes: { 'logo.image.bytes': bytes.length } },
      async (span) => {
        const stored = await this.store.put(
          bytes,
          type.mediaType,
          Date.now() + this.ttlMs,
          { origin: { prompt: image.prompt, model: image.model } },
        );
        annotate(span, { 'logo.image.media_type': type.mediaType });
        return {
          url: `${baseUrl}${HOSTED_LOGOS_PATH}/${stored.id}.${type.extension}`,
          expiresAt: new Date(stored.expiresAt),
        };
      },
    );
  }

  /**
   * The live logo named `file`, read whole (at most IMAGE_MAX_BYTES), with
   * what made it; null when it is unknown, expired, not an image, or
   * (hosted before sizes were checked) larger than IMAGE_MAX_PIXELS.
   * `fallback`: the origin told for a logo hosted before origins were
   * recorded.
   */
  async read(file: string, fallback: ImageOrigin): Promise<LogoImage | null> {
    const opened = await this.open(file);
    if (!opened) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const type = sniffImageType(bytes, { svg: true });
    if (!type || !isWithinPixelLimit(bytes, type, this.maxPixels)) return null;
    return {
      bytes,
      type,
      prompt: opened.prompt ?? fallback.prompt ?? '',
      model: opened.model ?? fallback.model ?? '',
    };
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
