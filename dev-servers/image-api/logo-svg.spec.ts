import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { LOGO_STYLES } from '../../src/logo/logo.constants';
import { drawLogoSvg, initialsOf, isDrawableColor } from './logo-svg';

const sketch = {
  companyName: 'Acme Rockets',
  style: 'modern' as const,
  colors: ['#0044ff', 'gold', '#ff00aa', 'rgb(1, 2, 3)'],
};

describe('drawLogoSvg', () => {
  it.each(LOGO_STYLES)('draws well-formed SVG for the style %s', (style) => {
    const svg = drawLogoSvg({ ...sketch, style });
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
      svg: Record<string, unknown>;
    };
    expect(root.svg['@_xmlns']).toBe('http://www.w3.org/2000/svg');
  });

  it('draws a different shape for each style', () => {
    const shapes = LOGO_STYLES.map((style) =>
      /<g data-style="[a-z]+">(.*?)<\/g>/.exec(
        drawLogoSvg({ ...sketch, style }),
      ),
    ).map((match) => match?.[1]);
    expect(new Set(shapes).size).toBe(LOGO_STYLES.length);
  });

  it('writes the initials', () => {
    expect(drawLogoSvg(sketch)).toMatch(/>AR<\/text>/);
  });

  it.each(LOGO_STYLES)(
    'uses every requested color in the style %s',
    (style) => {
      const svg = drawLogoSvg({ ...sketch, style });
      for (const color of sketch.colors) expect(svg).toContain(`"${color}"`);
    },
  );

  it('escapes the company name', () => {
    const svg = drawLogoSvg({ ...sketch, companyName: '<b>&"Co"' });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('&lt;b&gt;&amp;&quot;Co&quot;');
  });

  it('leaves out a color it cannot draw and still draws with the others', () => {
    const svg = drawLogoSvg({
      ...sketch,
      colors: ['ocean blue', '"/><script>', 'navy'],
    });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toContain('"navy"');
    expect(svg).not.toContain('ocean blue');
    expect(svg).not.toContain('<script>');
  });

  it('draws with its own colors when none is drawable', () => {
    const svg = drawLogoSvg({ ...sketch, colors: ['sea of dreams'] });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).toMatch(/fill="#[0-9a-f]{6}"/);
  });
});

describe('initialsOf', () => {
  it('takes the first letter of the first two words, upper-cased', () => {
    expect(initialsOf('Acme Rockets')).toBe('AR');
    expect(initialsOf('acme rockets and sons')).toBe('AR');
    expect(initialsOf('acme')).toBe('A');
    expect(initialsOf('über-cool (beta)')).toBe('ÜC');
    expect(initialsOf('42 Labs')).toBe('4L');
    expect(initialsOf('!!!')).toBe('?');
  });
});

describe('isDrawableColor', () => {
  it('accepts hex, named and functional colors and nothing else', () => {
    for (const color of [
      '#fff',
      '#0044FF',
      '#0044ff80',
      'navy',
      'rgb(1, 2, 3)',
      'hsl(200 50% 40%)',
    ]) {
      expect(isDrawableColor(color)).toBe(true);
    }
    for (const color of ['', '#12', 'ocean blue', 'url(#x)', 'red"', '<b>']) {
      expect(isDrawableColor(color)).toBe(false);
    }
  });
});
