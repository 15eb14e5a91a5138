import {
  contrastRatio,
  parseCssColour,
  relativeLuminance,
} from './css-colours';

describe('css colours', () => {
  it.each([
    ['#fff', { r: 255, g: 255, b: 255, a: 1 }],
    ['#000000', { r: 0, g: 0, b: 0, a: 1 }],
    ['#ff000080', { r: 255, g: 0, b: 0, a: 128 / 255 }],
    ['rgb(1, 2, 3)', { r: 1, g: 2, b: 3, a: 1 }],
    ['rgba(1, 2, 3, 0.5)', { r: 1, g: 2, b: 3, a: 0.5 }],
    ['rgb(1 2 3 / 50%)', { r: 1, g: 2, b: 3, a: 0.5 }],
    ['White', { r: 255, g: 255, b: 255, a: 1 }],
    ['grey', { r: 128, g: 128, b: 128, a: 1 }],
  ])('reads %s', (text, colour) => {
    expect(parseCssColour(text)).toEqual(colour);
  });

  it.each(['transparent', 'var(--x)', '#ggg', 'rgb(1,2)', 'hsl(0 0% 0%)', ''])(
    'does not judge %j',
    (text) => {
      expect(parseCssColour(text)).toBeUndefined();
    },
  );

  it('computes WCAG luminance and contrast', () => {
    const white = parseCssColour('#fff')!;
    const black = parseCssColour('#000')!;
    expect(relativeLuminance(white)).toBeCloseTo(1, 5);
    expect(relativeLuminance(black)).toBe(0);
    expect(contrastRatio(black, white)).toBeCloseTo(21, 5);
    expect(contrastRatio(white, white)).toBeCloseTo(1, 5);
    // #777 on white is WCAG's well-known borderline: 4.48:1.
    expect(contrastRatio(parseCssColour('#777')!, white)).toBeCloseTo(4.48, 2);
    expect(contrastRatio(white, parseCssColour('#777')!)).toBeCloseTo(4.48, 2);
  });

  it('lays a translucent text colour over its background first', () => {
    const white = parseCssColour('#fff')!;
    const halfBlack = parseCssColour('rgba(0, 0, 0, 0.5)')!;
    const grey = parseCssColour('rgb(127.5, 127.5, 127.5)')!;
    expect(contrastRatio(halfBlack, white)).toBeCloseTo(
      contrastRatio(grey, white),
      5,
    );
  });
});
