import { encodePng } from './png-encoder';

export type Rgb = [number, number, number];

/**
 * A picture with neither words nor a logo, `width`×`height`, in the given
 * colours: a diagonal blend of the first two and soft rings of a lighter
 * tint — what the dev image API answers for an edit asked at a size other
 * than the logo's (a hero's background), so the result looks like its
 * source (its colours) without being it.
 */
export function drawBackdropPng(
  width: number,
  height: number,
  colours: Rgb[],
): Buffer {
  const [from, to = shade(from)] = colours.length > 0 ? colours : [GREY];
  const tint = mix(from, [255, 255, 255], 0.25);
  const rgba = Buffer.alloc(width * height * 4);
  const rings = [
    { x: width * 0.75, y: height * 0.3, r: Math.min(width, height) * 0.35 },
    { x: width * 0.2, y: height * 0.85, r: Math.min(width, height) * 0.25 },
  ];
  // Plain numbers in the loop: a hero's two million pixels in a blink.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      let light = 0;
      for (const ring of rings) {
        const d = Math.sqrt((x - ring.x) ** 2 + (y - ring.y) ** 2) / ring.r;
        if (d < 1) light = Math.max(light, (1 - d) * 0.35);
      }
      const at = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) {
        const base = from[c] + (to[c] - from[c]) * t;
        rgba[at + c] = Math.round(base + (tint[c] - base) * light);
      }
      rgba[at + 3] = 255;
    }
  }
  return encodePng(width, height, rgba);
}

const GREY: Rgb = [96, 110, 128];

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t)) as Rgb;
}

function shade(colour: Rgb): Rgb {
  return mix(colour, [0, 0, 0], 0.4);
}
