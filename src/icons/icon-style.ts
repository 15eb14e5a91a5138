import { sanitizeSvg, type SvgLimits } from '../svg-safety/sanitize-svg';
import type { IconColors } from './icon-colors';
import type { IconStyle } from './dto/icon-set-input.dto';

/** The grid every icon of a set is drawn on. */
export const ICON_GRID = 24;

/** The set's stroke on the grid, whatever the source's own scale. */
const STROKE_WIDTH = 2;

/** Duotone's fill: the second colour, light enough for the stroke to lead. */
const DUOTONE_OPACITY = 0.25;

/**
 * An icon is a few hundred bytes and a few elements; a model's answer may
 * be larger, never this large.
 */
export const ICON_SVG_LIMITS: SvgLimits = {
  maxBytes: 64 * 1024,
  maxElements: 1_000,
  maxDepth: 16,
};

/**
 * Paint and styling the set decides, removed from the source's elements
 * so every icon has the same stroke, corners and colours. `class` and
 * `<style>` go too: a stylesheet would repaint what the set paints.
 */
const SET_PAINT =
  / (fill|fill-opacity|stroke|stroke-width|stroke-linecap|stroke-linejoin|stroke-opacity|stroke-miterlimit|color|class|style)="[^"]*"/g;
const STYLE_ELEMENT = /<style\b[^>]*(\/>|>[\s\S]*?<\/style>)/g;

/** What draws something: an icon with none of these is empty. */
const DRAWS = /<(path|rect|circle|ellipse|line|polyline|polygon|use|text)\b/;

/** The id duotone draws its shape twice by. */
const SHAPE_ID = 'icon-set-shape';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function attributeOf(tag: string, name: string): string | undefined {
  return new RegExp(` ${name}="([^"]*)"`).exec(tag)?.[1];
}

/** The source's drawing box: its viewBox, else its size, else the grid. */
function boxOf(rootTag: string): Box {
  const numbers = (attributeOf(rootTag, 'viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (
    numbers.length === 4 &&
    numbers.every(Number.isFinite) &&
    numbers[2] > 0 &&
    numbers[3] > 0
  ) {
    const [x, y, width, height] = numbers;
    return { x, y, width, height };
  }
  const width = parseFloat(attributeOf(rootTag, 'width') ?? '');
  const height = parseFloat(attributeOf(rootTag, 'height') ?? '');
  return width > 0 && height > 0 && Number.isFinite(width + height)
    ? { x: 0, y: 0, width, height }
    : { x: 0, y: 0, width: ICON_GRID, height: ICON_GRID };
}

/**
 * The transform that fits the box, centred, on the grid, and the scale it
 * applies (the stroke is divided by it, so it is STROKE_WIDTH on the grid).
 */
function fitToGrid(box: Box): { transform: string; scale: number } {
  const scale = ICON_GRID / Math.max(box.width, box.height);
  const dx = -box.x * scale + (ICON_GRID - box.width * scale) / 2;
  const dy = -box.y * scale + (ICON_GRID - box.height * scale) / 2;
  if (scale === 1 && dx === 0 && dy === 0) return { transform: '', scale };
  return {
    transform: ` transform="translate(${round(dx)} ${round(dy)}) scale(${round(scale)})"`,
    scale,
  };
}

/**
 * A safe SVG (sanitizeSvg's output, whose attributes are all written
 * `name="value"` with `"` escaped) redrawn as one icon of the set: on the
 * 24×24 grid with a viewBox, the set's colours, a 2-pixel round stroke
 * (outline), filled shapes (solid) or a light second-colour fill under
 * the stroke (duotone), then rebuilt from the allow-list once more.
 * Undefined when nothing drawable is left.
 */
export function restyleIcon(
  safeSvg: string,
  style: IconStyle,
  colors: IconColors,
): string | undefined {
  const root = /^<svg\b[^>]*>/.exec(safeSvg);
  if (!root || root[0].endsWith('/>')) return undefined;
  const inner = safeSvg
    .slice(root[0].length, safeSvg.lastIndexOf('</svg>'))
    .replace(STYLE_ELEMENT, '')
    .replace(SET_PAINT, '');
  if (!DRAWS.test(inner)) return undefined;
  const { transform, scale } = fitToGrid(boxOf(root[0]));
  const strokeWidth =
    scale === 1 ? '' : ` stroke-width="${round(STROKE_WIDTH / scale)}"`;
  const shape =
    transform || strokeWidth
      ? `<g${transform}${strokeWidth}>${inner}</g>`
      : inner;
  const fill = style === 'solid' ? colors.primary : 'none';
  const open = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${ICON_GRID}" height="${ICON_GRID}" viewBox="0 0 ${ICON_GRID} ${ICON_GRID}" fill="${fill}" stroke="${colors.primary}" stroke-width="${STROKE_WIDTH}" stroke-linecap="round" stroke-linejoin="round">`;
  const body =
    style === 'duotone'
      ? `<defs><g id="${SHAPE_ID}"${transform}${strokeWidth}>${inner}</g></defs><use href="#${SHAPE_ID}" fill="${colors.secondary}" fill-opacity="${DUOTONE_OPACITY}" stroke="none"/><use href="#${SHAPE_ID}"/>`
      : shape;
  return sanitizeSvg(`${open}${body}</svg>`, ICON_SVG_LIMITS).svg;
}
