import { renderAsync } from '@resvg/resvg-js';
import { dirname, join } from 'node:path';
import type { Wireframe, WireframeSection } from './wireframe';

/**
 * A wireframe's low-fidelity preview, drawn by the service (no model):
 * one column per page, each section a grey box with its type and
 * heading, bars where its copy goes, a box per item and its button.
 * The text is the wireframe's own, escaped; nothing is fetched.
 */

const PAGE_WIDTH = 300;
const MARGIN = 20;
const PAD = 10;
const TITLE_HEIGHT = 28;
const HEADING_HEIGHT = 22;
const BODY_HEIGHT = 22;
const ITEM_HEIGHT = 40;
const ITEMS_PER_ROW = 4;
const CTA_HEIGHT = 28;
const GAP = 8;
/** The font every label is drawn in: bundled, so no host font is used. */
const FONT = 'DejaVu Sans';

const FONT_DIR = join(
  dirname(require.resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const FONT_FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) =>
  join(FONT_DIR, file),
);

export interface PreviewSvg {
  svg: string;
  width: number;
  height: number;
}

/** Text as XML character data: escaped, without characters XML forbids. */
export function xmlText(text: string, max: number): string {
  const clean = [...text]
    .filter((c) => {
      const code = c.codePointAt(0)!;
      const forbidden =
        (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
        code === 0xfffe ||
        code === 0xffff;
      return !forbidden;
    })
    .join('');
  const cut = clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
  return cut.replace(
    /[&<>"']/g,
    (c) =>
      ({
        '&': '&amp;',
        '<': '&lt;',
        '>': '&gt;',
        '"': '&quot;',
        "'": '&apos;',
      })[c]!,
  );
}

const sectionHeight = (section: WireframeSection): number => {
  const rows = Math.ceil((section.items?.length ?? 0) / ITEMS_PER_ROW);
  return (
    PAD * 2 +
    HEADING_HEIGHT +
    (section.type === 'hero' ? BODY_HEIGHT : 0) +
    (section.body ? BODY_HEIGHT : 0) +
    rows * (ITEM_HEIGHT + GAP) +
    (section.cta ? CTA_HEIGHT : 0)
  );
};

function drawSection(section: WireframeSection, x: number, y: number) {
  const width = PAGE_WIDTH;
  const parts = [
    `<rect x="${x}" y="${y}" width="${width}" height="${sectionHeight(section)}" rx="4" fill="#e5e7eb" stroke="#9ca3af"/>`,
    `<text x="${x + PAD}" y="${y + PAD + 14}" font-size="13" font-weight="bold" fill="#374151">${xmlText(section.heading, 34)}</text>`,
    `<text x="${x + width - PAD}" y="${y + PAD + 12}" font-size="9" text-anchor="end" fill="#6b7280">${section.type}</text>`,
  ];
  let at = y + PAD + HEADING_HEIGHT;
  // Bars where the copy goes: a hero's two lines, a body's one.
  const copyHeight =
    (section.type === 'hero' ? BODY_HEIGHT : 0) +
    (section.body ? BODY_HEIGHT : 0);
  const bars = (section.type === 'hero' ? 2 : 0) + (section.body ? 1 : 0);
  for (let bar = 0; bar < bars; bar++) {
    parts.push(
      `<rect x="${x + PAD}" y="${at + 4 + (bar * copyHeight) / bars}" width="${width - PAD * 2 - bar * 40}" height="8" rx="2" fill="#d1d5db"/>`,
    );
  }
  at += copyHeight;
  const items = section.items ?? [];
  const itemWidth =
    (width - PAD * 2 - GAP * (ITEMS_PER_ROW - 1)) / ITEMS_PER_ROW;
  items.forEach((item, i) => {
    const ix = x + PAD + (i % ITEMS_PER_ROW) * (itemWidth + GAP);
    const iy = at + Math.floor(i / ITEMS_PER_ROW) * (ITEM_HEIGHT + GAP);
    parts.push(
      `<rect x="${ix}" y="${iy}" width="${itemWidth}" height="${ITEM_HEIGHT}" rx="3" fill="#f3f4f6" stroke="#9ca3af"/>`,
      `<text x="${ix + 4}" y="${iy + 14}" font-size="8" fill="#374151">${xmlText(item.title, 11)}</text>`,
    );
  });
  at += Math.ceil(items.length / ITEMS_PER_ROW) * (ITEM_HEIGHT + GAP);
  if (section.cta) {
    parts.push(
      `<rect x="${x + PAD}" y="${at + 2}" width="110" height="22" rx="4" fill="#6b7280"/>`,
      `<text x="${x + PAD + 55}" y="${at + 17}" font-size="10" text-anchor="middle" fill="#ffffff">${xmlText(section.cta.label, 16)}</text>`,
    );
  }
  return parts.join('');
}

/** The preview as SVG, its size in pixels. */
export function wireframePreviewSvg(wireframe: Wireframe): PreviewSvg {
  const columns: string[] = [];
  let height = 0;
  wireframe.pages.forEach((page, p) => {
    const x = MARGIN + p * (PAGE_WIDTH + MARGIN);
    const parts = [
      `<text x="${x}" y="${MARGIN + 16}" font-size="15" font-weight="bold" fill="#111827">${xmlText(page.name, 40)}</text>`,
    ];
    let y = MARGIN + TITLE_HEIGHT;
    for (const section of page.sections) {
      parts.push(drawSection(section, x, y));
      y += sectionHeight(section) + GAP;
    }
    height = Math.max(height, y + MARGIN - GAP);
    columns.push(`<g>${parts.join('')}</g>`);
  });
  const width = MARGIN + wireframe.pages.length * (PAGE_WIDTH + MARGIN);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${FONT}"><rect width="${width}" height="${height}" fill="#ffffff"/>${columns.join('')}</svg>`;
  return { svg, width, height };
}

/**
 * The preview as a PNG `width` pixels wide (its height as the drawing's
 * proportions make it), drawn by resvg in its worker thread (renderAsync:
 * the event loop is not held) with the bundled DejaVu fonts only, so the
 * pixels do not depend on the host's fonts.
 */
export async function wireframePreviewPng(
  wireframe: Wireframe,
  width: number,
): Promise<Buffer> {
  const { svg } = wireframePreviewSvg(wireframe);
  const image = await renderAsync(svg, {
    fitTo: { mode: 'width', value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: FONT_FILES,
      defaultFontFamily: FONT,
      sansSerifFamily: FONT,
    },
  });
  return image.asPng();
}
