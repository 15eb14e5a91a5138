import { iconImagePrompt } from '../../src/icons/icon-drawing';
import { drawIconSvg } from './icon-svg';

describe('drawIconSvg', () => {
  it('draws the service’s icon prompt as stroked vector shapes in its colour, no text', () => {
    const svg = drawIconSvg(
      iconImagePrompt('rocket-cart', 'outline', {
        primary: '#0044ff',
        secondary: '#0044ff',
      }),
    )!;
    expect(svg).toContain('viewBox="0 0 1024 1024"');
    expect(svg).toContain('stroke="#0044ff"');
    expect(svg).not.toContain('<text');
  });

  it('leaves any other prompt to the logo drawing', () => {
    expect(
      drawIconSvg('Create a modern logo for a company named "A".'),
    ).toBeUndefined();
  });
});
