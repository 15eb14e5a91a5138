/**
 * What the dev image API draws for an icon prompt (the icon-set task's,
 * "A simple user-interface icon of …") from a vector model: a Recraft-like
 * vector answer, a 1024 canvas of stroked shapes with no text, whose
 * corner radius follows the name so two icons differ. Undefined for any
 * other prompt (a logo is drawn then).
 */
export function drawIconSvg(prompt: string): string | undefined {
  const name = /^A simple user-interface icon of "([^"]+)"/.exec(prompt)?.[1];
  if (name === undefined) return undefined;
  const color = /#[0-9a-fA-F]{6}\b/.exec(prompt)?.[0] ?? '#333333';
  const corner = 96 + (name.length % 5) * 48;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024" viewBox="0 0 1024 1024">`,
    `<rect x="160" y="160" width="704" height="704" rx="${corner}" fill="none" stroke="${color}" stroke-width="80"/>`,
    `<path d="M352 512h320M512 352v320" fill="none" stroke="${color}" stroke-width="80" stroke-linecap="round"/>`,
    '</svg>',
    '',
  ].join('\n');
}
