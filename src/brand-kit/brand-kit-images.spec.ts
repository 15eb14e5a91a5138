import { backgroundFrom } from './brand-kit-images';

describe('backgroundFrom', () => {
  it("takes the first #rrggbb of a logo's prompt, lowercase", () => {
    expect(backgroundFrom('Use these colors: navy, #0044FF, #ffd700.')).toBe(
      '#0044ff',
    );
  });

  it('is white when the prompt names no #rrggbb', () => {
    expect(backgroundFrom('Use these colors: navy, white.')).toBe('#ffffff');
  });
});
