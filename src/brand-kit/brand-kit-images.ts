import { decode, inImageTurn } from '../assets/renditions/image-work';
import { sharpModule } from '../assets/renditions/sharp-module';
import { coloursOf } from '../brand/prompt-colours';
import { encodeIco } from './ico';

/** One file of a brand kit: its name in the kit (and the zip), type and bytes. */
export interface BrandKitFile {
  name: string;
  contentType: 'image/png' | 'image/x-icon';
  bytes: Buffer;
}

/** The kit's files, in the order they are kept and zipped. */
export const BRAND_KIT_FILES = [
  'favicon.ico',
  'apple-touch-icon.png',
  'icon-192.png',
  'icon-512.png',
  'og-image.png',
  'logo.png',
  'logo-mono.png',
  'logo-inverse.png',
] as const;

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
const OG_WIDTH = 1200;
const OG_HEIGHT = 630;
/** The logo's share of og-image's height. */
const OG_LOGO_HEIGHT = 420;

const square = (logo: Buffer, size: number, background = TRANSPARENT) =>
  decode(logo)
    .resize(size, size, { fit: 'contain', background })
    .png()
    .toBuffer();

/** The first #rrggbb of a logo's prompt (the colours asked for), else white. */
export function backgroundFrom(prompt: string): string {
  return coloursOf(prompt)[0] ?? '#ffffff';
}

/**
 * Every file of a brand kit, made from a logo's bytes in sharp's thread
 * pool, in one image operation turn and one operation after another (the
 * event loop only parses options and awaits, under a millisecond a step):
 * favicon.ico (16, 32 and 48 pixel PNGs), the touch and PWA icons, a
 * 1200×630 social image (the logo centred on `background`), and greyscale
 * the logo as PNG, and greyscale and negated versions of it (alpha kept).
 */
export function makeBrandKit(
  logo: Buffer,
  background: string,
): Promise<BrandKitFile[]> {
  return inImageTurn(async () => {
    // One image operation at a time: the turn stands for one (of
    // MAX_RUNNING) in sharp's threads, and three at once took both cores
    // of a 2-core pod from the event loop.
    const favicon = [];
    for (const size of [16, 32, 48]) {
      favicon.push({ size, png: await square(logo, size) });
    }
    const ogLogo = await decode(logo)
      .resize(OG_LOGO_HEIGHT, OG_LOGO_HEIGHT, {
        fit: 'contain',
        background: TRANSPARENT,
      })
      .png()
      .toBuffer();
    const og = await sharpModule()({
      create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 4, background },
    })
      .composite([{ input: ogLogo, gravity: 'centre' }])
      .png()
      .toBuffer();
    const png = (name: string, bytes: Buffer): BrandKitFile => ({
      name,
      contentType: 'image/png',
      bytes,
    });
    return [
      {
        name: 'favicon.ico',
        contentType: 'image/x-icon',
        bytes: encodeIco(favicon),
      },
      png('apple-touch-icon.png', await square(logo, 180)),
      png('icon-192.png', await square(logo, 192)),
      png('icon-512.png', await square(logo, 512)),
      png('og-image.png', og),
      png('logo.png', await decode(logo).png().toBuffer()),
      png('logo-mono.png', await decode(logo).greyscale().png().toBuffer()),
      png(
        'logo-inverse.png',
        await decode(logo).negate({ alpha: false }).png().toBuffer(),
      ),
    ];
  });
}
