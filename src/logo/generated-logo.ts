import type { ImageType } from '../image-store/image-type';

/** A generated logo: the temporary URL of its image. */
export interface GeneratedLogo {
  logoUrl: string;
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
