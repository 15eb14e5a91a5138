import sharp from 'sharp';
import {
  BRAND_KIT_FILES,
  backgroundFrom,
  makeBrandKit,
} from './brand-kit-images';
import { decodeIco } from './ico';

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

describe('makeBrandKit', () => {
  const logo = () =>
    sharp({
      create: {
        width: 256,
        height: 256,
        channels: 4,
        background: { r: 200, g: 40, b: 40, alpha: 1 },
      },
    })
      .png()
      .toBuffer();

  afterEach(() => jest.restoreAllMocks());

  it("makes the kit's files in order, the favicon of 16, 32 and 48 pixel PNGs", async () => {
    const files = await makeBrandKit(await logo(), '#0044ff');
    expect(files.map((file) => file.name)).toEqual([...BRAND_KIT_FILES]);
    const favicon = decodeIco(files[0].bytes);
    expect(favicon.map((image) => image.size)).toEqual([16, 32, 48]);
    for (const image of favicon) {
      const { width, height } = await sharp(image.png).metadata();
      expect([width, height]).toEqual([image.size, image.size]);
    }
  });

  it('gives sharp one of its images at a time', async () => {
    const bytes = await logo();
    const toBuffer = sharp.prototype.toBuffer;
    let running = 0;
    let most = 0;
    jest.spyOn(sharp.prototype, 'toBuffer').mockImplementation(function (
      this: sharp.Sharp,
    ) {
      running++;
      most = Math.max(most, running);
      return (toBuffer.call(this) as Promise<Buffer>).finally(() => {
        running--;
      });
    } as typeof toBuffer);
    await makeBrandKit(bytes, '#0044ff');
    expect(most).toBe(1);
  });
});
