import type { BrandColours } from './brand-colours';
import { luminanceOf } from './brand-colours';
import { wrapText, type WrappedText } from './headline-wrap';

/** The font the headline is set in (bundled, see graphic-renderer.ts). */
export const HEADLINE_FONT = 'DejaVu Sans';
const LINE_HEIGHT = 1.2;

/** What a graphic shows: its size, colours, words and images. */
export interface GraphicContent {
  width: number;
  height: number;
  colours: BrandColours;
  headline: string;
  /** The logo as a PNG sized to `LogoCard.inner` a side; absent: a wordmark. */
  logoPng?: Buffer;
  /** Drawn when there is no logo: the project's initials. */
  wordmark: string;
  /** A picture under everything (the hero's), exactly width × height. */
  backgroundPng?: Buffer;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where the parts go on a frame. */
export interface GraphicLayout {
  padding: number;
  /** The logo's card. */
  card: Box;
  /** The logo inside the card (a square). */
  logo: Box;
  /** The headline's box: every line is drawn inside it. */
  text: Box;
  /** The accent band along the bottom edge. */
  band: Box;
  align: 'start' | 'middle';
}

/**
 * The frame's layout: wide frames put the logo's card on the left and the
 * headline beside it; square and tall ones put the card on top and the
 * headline under it, centred.
 */
export function layoutOf(width: number, height: number): GraphicLayout {
  const padding = Math.round(Math.min(width, height) * 0.08);
  const bandHeight = Math.round(height * 0.025);
  const band = { x: 0, y: height - bandHeight, width, height: bandHeight };
  const bottom = band.y - padding;
  if (width >= height * 1.2) {
    const side = Math.round(Math.min(height * 0.5, width * 0.28));
    const card = {
      x: padding,
      y: Math.round((band.y - side) / 2),
      width: side,
      height: side,
    };
    const textX = card.x + side + padding;
    return {
      padding,
      card,
      logo: inset(card),
      text: {
        x: textX,
        y: padding,
        width: width - textX - padding,
        height: bottom - padding,
      },
      band,
      align: 'start',
    };
  }
  const side = Math.round(Math.min(width * 0.4, height * 0.3));
  const card = {
    x: Math.round((width - side) / 2),
    y: Math.round(padding * 1.5),
    width: side,
    height: side,
  };
  const textY = card.y + side + padding;
  return {
    padding,
    card,
    logo: inset(card),
    text: {
      x: padding,
      y: textY,
      width: width - 2 * padding,
      height: bottom - textY,
    },
    band,
    align: 'middle',
  };
}

/** The card's inner square: a tenth of margin on each side. */
function inset(card: Box): Box {
  const margin = Math.round(card.width * 0.1);
  return {
    x: card.x + margin,
    y: card.y + margin,
    width: card.width - 2 * margin,
    height: card.height - 2 * margin,
  };
}

export interface FittedHeadline extends WrappedText {
  fontSize: number;
}

/**
 * The largest type (from a fifth of the box's height down to a floor) at
 * which the headline fits its box whole; at the floor, what fits, cut
 * with an ellipsis. Lines are bounded by the box's height and by six.
 */
export function fitHeadline(headline: string, box: Box): FittedHeadline {
  const largest = Math.min(box.height / 2.5, box.width / 6);
  const smallest = Math.max(18, Math.min(box.width, box.height) / 12);
  let fontSize = Math.max(largest, smallest);
  for (;;) {
    const maxLines = Math.max(
      1,
      Math.min(6, Math.floor(box.height / (fontSize * LINE_HEIGHT))),
    );
    const wrapped = wrapText(headline, box.width / fontSize, maxLines);
    if (!wrapped.truncated || fontSize <= smallest) {
      return { ...wrapped, fontSize: Math.floor(fontSize) };
    }
    fontSize = Math.max(smallest, fontSize * 0.9);
  }
}

/** Text as XML character data or an attribute value: escaped, and what XML cannot hold dropped. */
export function escapeXml(text: string): string {
  return (
    text
      .toWellFormed()
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** The initials of a name, at most two, for a wordmark. */
export function initialsOf(name: string): string {
  const words = name
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 2);
  const initials = words
    .map((word) => String.fromCodePoint(word.codePointAt(0) ?? 0x3f))
    .join('')
    .toUpperCase();
  return initials || '?';
}

const dataUrl = (png: Buffer) =>
  `data:image/png;base64,${png.toString('base64')}`;

/** The graphic as an SVG document: what the renderer draws. */
export function graphicSvg(content: GraphicContent): string {
  const { width, height, colours } = content;
  const layout = layoutOf(width, height);
  const fitted = fitHeadline(content.headline, layout.text);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<rect width="${width}" height="${height}" fill="${colours.primary}"/>`,
  ];
  if (content.backgroundPng) {
    parts.push(
      `<image href="${dataUrl(content.backgroundPng)}" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="xMidYMid slice"/>`,
      // A veil of the brand colour under the words, so they read on any picture.
      `<rect width="${width}" height="${height}" fill="${colours.primary}" fill-opacity="0.55"/>`,
    );
  }
  const { card, logo, band } = layout;
  const radius = Math.round(card.width * 0.12);
  parts.push(
    `<rect x="${band.x}" y="${band.y}" width="${band.width}" height="${band.height}" fill="${colours.accent}"/>`,
  );
  if (content.logoPng) {
    parts.push(
      `<rect x="${card.x}" y="${card.y}" width="${card.width}" height="${card.height}" rx="${radius}" fill="#ffffff"/>`,
      `<image href="${dataUrl(content.logoPng)}" x="${logo.x}" y="${logo.y}" width="${logo.width}" height="${logo.height}" preserveAspectRatio="xMidYMid meet"/>`,
    );
  } else {
    const ink = luminanceOf(colours.accent) > 0.45 ? '#111111' : '#ffffff';
    const initials = initialsOf(content.wordmark);
    parts.push(
      `<rect x="${card.x}" y="${card.y}" width="${card.width}" height="${card.height}" rx="${radius}" fill="${colours.accent}"/>`,
      `<text x="${card.x + card.width / 2}" y="${card.y + card.height / 2}" font-family="${HEADLINE_FONT}" font-weight="bold" font-size="${Math.round(card.width * (initials.length > 1 ? 0.36 : 0.5))}" fill="${ink}" text-anchor="middle" dominant-baseline="central">${escapeXml(initials)}</text>`,
    );
  }
  parts.push(headlineSvg(fitted, layout, colours.text), '</svg>');
  return parts.join('');
}

/** The headline's lines, centred as a block in the text box. */
function headlineSvg(
  fitted: FittedHeadline,
  layout: GraphicLayout,
  colour: string,
): string {
  const { text, align } = layout;
  const lineHeight = fitted.fontSize * LINE_HEIGHT;
  const blockHeight = lineHeight * fitted.lines.length;
  const top = text.y + (text.height - blockHeight) / 2;
  const x = align === 'start' ? text.x : text.x + text.width / 2;
  const lines = fitted.lines.map(
    (line, index) =>
      `<tspan x="${x}" y="${(top + lineHeight * index + fitted.fontSize * 0.95).toFixed(1)}">${escapeXml(line)}</tspan>`,
  );
  return `<text font-family="${HEADLINE_FONT}" font-weight="bold" font-size="${fitted.fontSize}" fill="${colour}" text-anchor="${align}">${lines.join('')}</text>`;
}
