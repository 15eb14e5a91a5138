import { readFileSync } from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { sanitizeSvg } from '../svg-safety/sanitize-svg';
import { restyleIcon } from './icon-style';

const COLORS = { primary: '#0044ff', secondary: '#ff8800' };
const NS = 'xmlns="http://www.w3.org/2000/svg"';
const safe = (text: string) => sanitizeSvg(text).svg;
const lucide = (name: string) =>
  safe(
    readFileSync(require.resolve(`lucide-static/icons/${name}.svg`), 'utf8'),
  );
const OPEN = (fill: string) =>
  `<svg ${NS} width="24" height="24" viewBox="0 0 24 24" fill="${fill}" stroke="#0044ff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">`;

describe('restyleIcon', () => {
  it('outline: a Lucide icon keeps its shapes on the 24 grid, stroked in the brand colour, currentColor gone', () => {
    const icon = restyleIcon(lucide('shopping-cart'), 'outline', COLORS)!;
    expect(icon.startsWith(OPEN('none'))).toBe(true);
    expect(icon).toContain('<circle cx="18" cy="20" r="2"/>');
    expect(icon).not.toContain('currentColor');
    expect(icon).not.toContain('class=');
    expect(XMLValidator.validate(icon)).toBe(true);
  });

  it('solid fills the shapes in the brand colour', () => {
    const icon = restyleIcon(lucide('house'), 'solid', COLORS)!;
    expect(icon.startsWith(OPEN('#0044ff'))).toBe(true);
  });

  it('duotone draws the shape twice: a light fill of the second colour under the outline', () => {
    const icon = restyleIcon(lucide('search'), 'duotone', COLORS)!;
    expect(icon.startsWith(OPEN('none'))).toBe(true);
    expect(icon).toContain('<defs><g id="icon-set-shape">');
    expect(icon).toContain(
      '<use href="#icon-set-shape" fill="#ff8800" fill-opacity="0.25" stroke="none"/><use href="#icon-set-shape"/>',
    );
  });

  it('takes the set’s paint over the source’s: fills, strokes, classes, style attributes and style elements go', () => {
    const icon = restyleIcon(
      safe(
        `<svg ${NS} viewBox="0 0 24 24"><style>rect{fill:red}</style><rect class="a" fill="red" stroke="green" stroke-width="5" style="stroke:blue" width="10" height="10"/></svg>`,
      ),
      'outline',
      COLORS,
    );
    expect(icon).toBe(`${OPEN('none')}<rect width="10" height="10"/></svg>`);
  });

  it('fits another viewBox onto the 24 grid, centred, with the stroke kept at 2 on the grid', () => {
    const icon = restyleIcon(
      safe(
        `<svg ${NS} viewBox="0 0 100 50"><rect x="10" y="10" width="80" height="30"/></svg>`,
      ),
      'outline',
      COLORS,
    );
    expect(icon).toContain(
      '<g transform="translate(0 6) scale(0.24)" stroke-width="8.333"><rect x="10" y="10" width="80" height="30"/></g>',
    );
  });

  it('reads the size when there is no viewBox, and offsets a viewBox that does not start at 0', () => {
    expect(
      restyleIcon(
        safe(`<svg ${NS} width="48" height="48"><circle r="4"/></svg>`),
        'outline',
        COLORS,
      ),
    ).toContain('<g transform="translate(0 0) scale(0.5)" stroke-width="4">');
    expect(
      restyleIcon(
        safe(`<svg ${NS} viewBox="-12 -12 24 24"><circle r="4"/></svg>`),
        'outline',
        COLORS,
      ),
    ).toContain('<g transform="translate(12 12) scale(1)">');
  });

  it('answers undefined when nothing drawable is left', () => {
    for (const text of [
      `<svg ${NS}/>`,
      `<svg ${NS}><script>alert(1)</script></svg>`,
      `<svg ${NS}><defs/><title>x</title></svg>`,
    ]) {
      expect(restyleIcon(safe(text), 'outline', COLORS)).toBeUndefined();
    }
  });
});
