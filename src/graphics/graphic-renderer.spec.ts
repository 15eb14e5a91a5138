import sharp from 'sharp';
import { renderSvgToPng, stopGraphicRenderer } from './graphic-renderer';

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#0044ff"/><text x="10" y="40" font-size="24" fill="#fff">Hi</text></svg>';

describe('the graphic renderer', () => {
  afterAll(() => stopGraphicRenderer());

  it('draws an SVG as a PNG of its size', async () => {
    const meta = await sharp(await renderSvgToPng(SVG)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 120, 60]);
  });

  it('renders many times under one task signal (which it leaves as it was)', async () => {
    const controller = new AbortController();
    const onabort = jest.fn();
    controller.signal.onabort = onabort;
    for (let round = 0; round < 3; round++) {
      await renderSvgToPng(SVG, controller.signal);
    }
    expect(controller.signal.onabort).toBe(onabort);
  });

  it('starts a new worker after the last one was stopped', async () => {
    await renderSvgToPng(SVG);
    await stopGraphicRenderer();
    const meta = await sharp(await renderSvgToPng(SVG)).metadata();
    expect(meta.width).toBe(120);
  });

  it('refuses to start once the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(renderSvgToPng(SVG, controller.signal)).rejects.toThrow(
      'cancelled',
    );
  });
});
