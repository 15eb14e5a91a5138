import type { ImageType } from '../image-store/image-type';

/** A generated logo: the temporary URL of its image, and when it expires. */
export interface GeneratedLogo {
  logoUrl: string;
  /**
   * ISO-8601: when logoUrl stops working (a hosted logo's LOGO_URL_TTL_S,
   * or what the image API's signed URL states); null when the image API's
   * URL states nothing.
   */
  expiresAt: string | null;
}

/** A generated logo's image itself, with what asked for it. */
export interface LogoImage {
  /** A PNG, JPEG or WebP (by its magic bytes), at most IMAGE_MAX_BYTES. */
  bytes: Buffer;
  type: ImageType;
  /** The prompt the image model was given. */
  prompt: string;
  /** The image model that drew it (IMAGE_MODEL, or a fallback model). */
  model: string;
}
