import { advanceOf, graphemesOf, widthOf, wrapText } from './headline-wrap';

describe('headline wrapping', () => {
  it('breaks at spaces so that every line fits its width', () => {
    const { lines, truncated } = wrapText(
      'Parcels across town in an hour, every day',
      10,
      6,
    );
    expect(truncated).toBe(false);
    expect(lines.join(' ')).toBe('Parcels across town in an hour, every day');
    for (const line of lines) expect(widthOf(line)).toBeLessThanOrEqual(10);
  });

  it('breaks a word longer than a line between its characters', () => {
    const { lines } = wrapText('W'.repeat(40), 10, 10);
    expect(lines.join('')).toBe('W'.repeat(40));
    for (const line of lines) expect(widthOf(line)).toBeLessThanOrEqual(10);
  });

  it('keeps at most maxLines lines, the last cut with an ellipsis that fits', () => {
    const { lines, truncated } = wrapText('word '.repeat(60), 8, 3);
    expect(truncated).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[2].endsWith('…')).toBe(true);
    expect(widthOf(lines[2])).toBeLessThanOrEqual(8);
  });

  it('never splits an emoji sequence or a letter from its accent', () => {
    const family = '👩‍👩‍👧';
    const accented = 'e\u0301';
    expect(graphemesOf(`${family}${accented}`)).toEqual([family, accented]);
    const { lines } = wrapText(`${family}${accented}`.repeat(10), 2.4, 20);
    for (const line of lines) {
      expect(
        graphemesOf(line).every((g) => g === family || g === accented),
      ).toBe(true);
    }
  });

  it('counts East Asian characters and emoji a full em or more', () => {
    expect(advanceOf('東')).toBeGreaterThanOrEqual(1);
    expect(advanceOf('🚀')).toBeGreaterThanOrEqual(1);
    expect(advanceOf('i')).toBeLessThan(advanceOf('W'));
  });

  it('answers no lines for a blank text', () => {
    expect(wrapText('   ', 10, 3)).toEqual({ lines: [], truncated: false });
  });
});
