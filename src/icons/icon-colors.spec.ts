import { colorsFromPrompt } from './icon-colors';

describe('colorsFromPrompt', () => {
  it('reads the first two #rrggbb colours of a logo prompt, lowercased', () => {
    expect(
      colorsFromPrompt(
        'Create a modern logo. Use these colors: navy, #0044FF, #ff8800, #000000.',
      ),
    ).toEqual({ primary: '#0044ff', secondary: '#ff8800' });
  });

  it('uses the one colour twice, folds a repeated one, and has none for named colours or no prompt', () => {
    expect(colorsFromPrompt('Use these colors: #123456, #123456.')).toEqual({
      primary: '#123456',
      secondary: '#123456',
    });
    expect(colorsFromPrompt('Use these colors: navy, white.')).toBeUndefined();
    expect(colorsFromPrompt(null)).toBeUndefined();
    expect(colorsFromPrompt('#12345g and #1234567')).toBeUndefined();
  });
});
