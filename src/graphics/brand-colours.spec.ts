import { brandColours, DEFAULT_COLOURS } from './brand-colours';

describe('brand colours', () => {
  it('draws in the default colours when there are none', () => {
    expect(brandColours([]).primary).toBe(DEFAULT_COLOURS[0]);
    expect(brandColours([]).accent).toBe(DEFAULT_COLOURS[1]);
  });

  it('writes white on a dark colour and near-black on a light one', () => {
    expect(brandColours(['#0044ff']).text).toBe('#ffffff');
    expect(brandColours(['#ffd700']).text).toBe('#111111');
  });

  it('makes an accent from the one colour given', () => {
    const { primary, accent } = brandColours(['#0044ff']);
    expect(accent).toMatch(/^#[0-9a-f]{6}$/);
    expect(accent).not.toBe(primary);
  });
});
