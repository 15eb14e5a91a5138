import sharp from 'sharp';
import { brandColours } from './brand-colours';
import { GRAPHIC_SIZES } from './graphic-formats';
import {
  escapeXml,
  fitHeadline,
  graphicSvg,
  initialsOf,
  layoutOf,
  type GraphicContent,
} from './graphic-layout';
import { renderSvgToPng, stopGraphicRenderer } from './graphic-renderer';
import { widthOf } from './headline-wrap';

const HOSTILE =
  '</text><script>alert(1)</script> & "quotes" \'apostrophes\' <![CDATA[x]]> \u0001\u0008';
const LONG = 'Wide words WWWW MMMM '.repeat(6).slice(0, 120);
const UNICODE = 'Colis livrés à Tōkyō 東京 en une heure 🚀👩‍👩‍👧 — vite, très vite';

/** Pixels that differ between two same-sized PNGs, as their bounding box. */
async function changedBox(a: Buffer, b: Buffer) {
  const [pa, pb] = await Promise.all(
    [a, b].map((png) => sharp(png).raw().toBuffer({ resolveWithObject: true })),
  );
  const { width, height, channels } = pa.info;
  let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      let same = true;
      for (let c = 0; c < channels; c++) {
        if (pa.data[at + c] !== pb.data[at + c]) same = false;
      }
      if (same) continue;
      box = box
        ? {
            x0: Math.min(box.x0, x),
            y0: Math.min(box.y0, y),
            x1: Math.max(box.x1, x),
            y1: Math.max(box.y1, y),
          }
        : { x0: x, y0: y, x1: x, y1: y };
    }
  }
  return box;
}

const content = (
  format: keyof typeof GRAPHIC_SIZES,
  headline: string,
): GraphicContent => ({
  ...GRAPHIC_SIZES[format],
  colours: brandColours(['#0044ff', '#ffd700']),
  headline,
  wordmark: 'Acme Rockets',
});

describe('graphic layout', () => {
  afterAll(() => stopGraphicRenderer());

  it('escapes text for XML and drops the characters XML cannot hold', () => {
    expect(escapeXml(`a<b>&"c"'d'\u0000\u001f\ud800`)).toBe(
      'a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;\ufffd',
    );
  });

  it('puts the card beside the headline on wide frames and above it on tall ones', () => {
    const wide = layoutOf(1200, 630);
    expect(wide.align).toBe('start');
    expect(wide.text.x).toBeGreaterThan(wide.card.x + wide.card.width);
    const tall = layoutOf(1080, 1920);
    expect(tall.align).toBe('middle');
    expect(tall.text.y).toBeGreaterThan(tall.card.y + tall.card.height);
  });

  it.each(Object.keys(GRAPHIC_SIZES))(
    'fits a 120-character headline in the text box of %s',
    (format) => {
      const { width, height } =
        GRAPHIC_SIZES[format as keyof typeof GRAPHIC_SIZES];
      const box = layoutOf(width, height).text;
      const fitted = fitHeadline(LONG, box);
      expect(fitted.lines.length * fitted.fontSize * 1.2).toBeLessThanOrEqual(
        box.height,
      );
      for (const line of fitted.lines) {
        expect(widthOf(line) * fitted.fontSize).toBeLessThanOrEqual(box.width);
      }
    },
  );

  it('gives the initials of a name for a wordmark', () => {
    expect(initialsOf('acme rockets inc')).toBe('AR');
    expect(initialsOf('東京 delivery')).toBe('東D');
    expect(initialsOf('!!!')).toBe('?');
  });

  it('keeps hostile text as text: no element of it reaches the document', () => {
    const svg = graphicSvg(content('og', HOSTILE));
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<![CDATA[');
    expect(svg.match(/<text/g)).toHaveLength(2);
  });

  // Drawn with and without the headline: every pixel the words change lies
  // inside the headline's box, however long, wide or foreign they are.
  it.each([
    ['og', LONG],
    ['x', UNICODE],
    ['linkedin', HOSTILE],
    ['instagram', LONG],
    ['story', UNICODE],
    ['hero', 'W'.repeat(120)],
  ] as const)('draws the %s headline inside its box', async (format, words) => {
    const [withWords, without] = await Promise.all([
      renderSvgToPng(graphicSvg(content(format, words))),
      renderSvgToPng(graphicSvg(content(format, ''))),
    ]);
    const meta = await sharp(withWords).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([
      'png',
      GRAPHIC_SIZES[format].width,
      GRAPHIC_SIZES[format].height,
    ]);
    const box = await changedBox(withWords, without);
    const text = layoutOf(meta.width, meta.height).text;
    expect(box).toBeDefined();
    expect(box!.x0).toBeGreaterThanOrEqual(text.x);
    expect(box!.x1).toBeLessThan(text.x + text.width);
    expect(box!.y0).toBeGreaterThanOrEqual(text.y);
    expect(box!.y1).toBeLessThan(text.y + text.height);
  });
});
