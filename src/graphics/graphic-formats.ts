/**
 * The graphics a `graphics` task makes, one PNG each at its exact size:
 * the five social formats, as the networks document them, and `hero`, a
 * 16:9 banner (1920×1080, a full-HD screen's width) whose background the
 * image model draws.
 */
export const GRAPHIC_FORMATS = [
  'og',
  'x',
  'linkedin',
  'instagram',
  'story',
  'hero',
] as const;
export type GraphicFormat = (typeof GRAPHIC_FORMATS)[number];

/** The set made when none is asked: the social ones (no model call). */
export const SOCIAL_FORMATS: readonly GraphicFormat[] = [
  'og',
  'x',
  'linkedin',
  'instagram',
  'story',
];

export const GRAPHIC_SIZES: Record<
  GraphicFormat,
  { width: number; height: number }
> = {
  og: { width: 1200, height: 630 },
  x: { width: 1600, height: 900 },
  linkedin: { width: 1200, height: 627 },
  instagram: { width: 1080, height: 1080 },
  story: { width: 1080, height: 1920 },
  hero: { width: 1920, height: 1080 },
};

export const GRAPHIC_HEADLINE_MAX = 120;

/** The asset's file name: the format's. */
export const graphicFileName = (format: GraphicFormat): string =>
  `${format}.png`;
