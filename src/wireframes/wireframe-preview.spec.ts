import sharp from 'sharp';
import type { Wireframe } from './wireframe';
import {
  wireframePreviewPng,
  wireframePreviewSvg,
  xmlText,
} from './wireframe-preview';

const WIREFRAME: Wireframe = {
  pages: [
    {
      name: 'home',
      sections: [
        {
          type: 'hero',
          heading: 'Ship <faster> & "safer"',
          body: 'Copy',
          cta: { label: 'Start' },
        },
        {
          type: 'features',
          heading: 'Features',
          items: [
            { title: 'One' },
            { title: 'Two' },
            { title: 'Three' },
            { title: 'Four' },
            { title: 'Five' },
          ],
        },
      ],
    },
    { name: 'pricing', sections: [{ type: 'pricing', heading: 'Plans' }] },
  ],
};

describe('wireframe preview', () => {
  it('draws a column per page, a box per section with its escaped heading', () => {
    const { svg, width, height } = wireframePreviewSvg(WIREFRAME);
    expect(width).toBe(20 + 2 * 320);
    expect(height).toBeGreaterThan(100);
    expect(svg).toContain('Ship &lt;faster&gt; &amp; &quot;safer&quot;');
    expect(svg).not.toContain('<faster>');
    expect(svg.match(/<g>/g)).toHaveLength(2);
    // Three sections, five items, one button: grey boxes, item boxes, a button.
    expect(svg.match(/fill="#e5e7eb"/g)).toHaveLength(3);
    expect(svg.match(/fill="#f3f4f6"/g)).toHaveLength(5);
    expect(svg).toContain('>Start</text>');
    expect(svg).not.toMatch(/href|<script|<image|url\(/i);
  });

  it('keeps text XML can carry: control characters dropped, long text cut', () => {
    expect(xmlText('a\u0000b\u001fc', 10)).toBe('abc');
    expect(xmlText('abcdefghij', 5)).toBe('abcd…');
    expect(xmlText("<x y='1'>", 20)).toBe('&lt;x y=&apos;1&apos;&gt;');
  });

  it('renders the preview as a PNG of the width asked for, with the bundled fonts', async () => {
    const png = await wireframePreviewPng(WIREFRAME, 256);
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(256);
    const { width, height } = wireframePreviewSvg(WIREFRAME);
    expect(meta.height).toBe(Math.round((256 * height) / width));
    // Not a blank page: the grey boxes and dark text are drawn.
    const stats = await sharp(png).stats();
    expect(stats.channels[0].min).toBeLessThan(120);
  });
});
