import { capabilitiesOf } from './model-capabilities';
import { acceptsSize, drawSizeFor, flexibleSizeProblem } from './flexible-size';

describe('flexible image sizes', () => {
  it('takes multiples of 16 within the edge, ratio and pixel bounds', () => {
    expect(flexibleSizeProblem(1920, 1088)).toBeUndefined();
    expect(flexibleSizeProblem(1920, 1080)).toMatch(/multiples of 16/);
    expect(flexibleSizeProblem(1024, 1000)).toMatch(/multiples of 16/);
    expect(flexibleSizeProblem(3856, 2048)).toMatch(/longest edge/);
    expect(flexibleSizeProblem(3072, 1008)).toMatch(/aspect ratio/);
    expect(flexibleSizeProblem(512, 512)).toMatch(/pixels/);
    expect(flexibleSizeProblem(3840, 2400)).toMatch(/pixels/);
  });

  it('draws a hero larger than asked, in multiples of 16, for gpt-image-2', () => {
    const size = drawSizeFor(capabilitiesOf('gpt-image-2'), 1920, 1080);
    expect(size).toBe('1920x1088');
    expect(acceptsSize(capabilitiesOf('gpt-image-2'), size)).toBe(true);
  });

  it('draws at the listed size nearest the shape for a model of fixed sizes', () => {
    expect(drawSizeFor(capabilitiesOf('gpt-image-1.5'), 1920, 1080)).toBe(
      '1536x1024',
    );
    expect(drawSizeFor(capabilitiesOf('dall-e-2'), 1920, 1080)).toBe(
      '1024x1024',
    );
    expect(acceptsSize(capabilitiesOf('gpt-image-1.5'), '1920x1088')).toBe(
      false,
    );
  });
});
