/**
 * The sizes a rendition is made in: the favicon's (16, 32, 48), an icon's
 * (24, 48, 96: its grid at 1×, 2× and 4×), the touch and PWA icons' (180,
 * 192, 512) and the powers of two up to 1024. Any
 * other size from 16 to 1024 is served by the next step up, so one asset
 * has at most this many renditions, whatever its clients ask for: sizes
 * chosen freely made one stored PNG per integer (1,009 of them).
 */
export const RENDITION_LADDER: readonly number[] = [
  16, 24, 32, 48, 64, 96, 128, 180, 192, 256, 512, 1024,
];

/** The smallest step of the ladder at least `size` pixels a side. */
export function ladderStepFor(size: number): number {
  const step = RENDITION_LADDER.find((candidate) => candidate >= size);
  if (step === undefined) {
    throw new RangeError(`No rendition is larger than ${size} pixels`);
  }
  return step;
}
