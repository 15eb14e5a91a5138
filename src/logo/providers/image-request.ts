/**
 * One image generation as the service means it, whatever the provider: a
 * profile turns it into that provider's HTTP body (image-profiles.ts).
 */
export interface ImageRequest {
  prompt: string;
  count: number;
  size: { width: number; height: number };
  background: 'transparent' | 'opaque' | 'auto';
  format: 'png' | 'webp' | 'jpeg' | 'svg';
  quality?: string;
  wantBytes: boolean;
}

export type ImageFormat = ImageRequest['format'];
