/**
 * Breaking a headline into lines that fit a box, without a text engine:
 * each character's advance is estimated from DejaVu Sans Bold's widths,
 * rounded up (wide letters, capitals and digits at their widest, East Asian
 * and emoji characters a full em), so a line measured to fit is never wider
 * when drawn. The renderer is told no widths: the estimate only decides
 * where lines break and how large the type is.
 */

const GRAPHEMES = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The characters as a reader sees them: an emoji sequence or a letter and its accents are one. */
export const graphemesOf = (text: string): string[] =>
  Array.from(GRAPHEMES.segment(text), (part) => part.segment);

/** The advance of one character (a grapheme), in ems, never below the font's own. */
export function advanceOf(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x20) return 0.35;
  if (code < 0x80) {
    if ("iljtfI!.,:;'|()[]".includes(char)) return 0.45;
    if ('mwMW@%'.includes(char)) return 1.1;
    if (char >= 'A' && char <= 'Z') return 0.85;
    return 0.72;
  }
  // CJK, Hangul, full-width forms, emoji and other pictographs: a full em
  // (with room for a fallback glyph of another width).
  if (code >= 0x1100) return 1.15;
  return 0.9;
}

/** A run of text's width in ems. */
export function widthOf(text: string): number {
  let width = 0;
  for (const char of graphemesOf(text)) width += advanceOf(char);
  return width;
}

export interface WrappedText {
  lines: string[];
  /** Some of the text did not fit in `maxLines`: the last line ends in "…". */
  truncated: boolean;
}

const ELLIPSIS = '…';

/**
 * `text` in at most `maxLines` lines of at most `maxEms` ems: broken at
 * spaces, a word longer than a line broken between its characters; what
 * does not fit is cut and the last line ends in an ellipsis.
 */
export function wrapText(
  text: string,
  maxEms: number,
  maxLines: number,
): WrappedText {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  const push = () => {
    if (line) lines.push(line);
    line = '';
  };
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (widthOf(candidate) <= maxEms) {
      line = candidate;
      continue;
    }
    push();
    // A word wider than a line: as many characters a line as fit.
    let rest = word;
    while (widthOf(rest) > maxEms) {
      const head = fittingHead(rest, maxEms);
      lines.push(head);
      rest = rest.slice(head.length);
    }
    line = rest;
  }
  push();
  if (lines.length <= maxLines) return { lines, truncated: false };
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = withEllipsis(kept[maxLines - 1], maxEms);
  return { lines: kept, truncated: true };
}

/** The longest start of `text` (whole characters, at least one) within `maxEms`. */
function fittingHead(text: string, maxEms: number): string {
  let head = '';
  let width = 0;
  for (const char of graphemesOf(text)) {
    const next = width + advanceOf(char);
    if (next > maxEms && head) break;
    head += char;
    width = next;
  }
  return head;
}

/** `line` shortened until it and an ellipsis fit. */
function withEllipsis(line: string, maxEms: number): string {
  const chars = graphemesOf(line);
  while (chars.length > 0 && widthOf(chars.join('') + ELLIPSIS) > maxEms) {
    chars.pop();
  }
  return `${chars.join('').trimEnd()}${ELLIPSIS}`;
}
