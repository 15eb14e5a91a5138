/**
 * Keeps the mappings of a source map that point into the project's own
 * sources and drops the libraries' (node_modules). Node parses a bundle's
 * whole map the first time a stack trace goes through it: for the service's
 * bundle that took 640 ms and 125 MB of heap (the pod's old generation is
 * 128 MB), nearly all of it for the libraries' lines. Frames in a library
 * then show the bundle's position and the function's name.
 */

const BASE64 =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

export interface RawSourceMap {
  version: number;
  sources: string[];
  names: string[];
  mappings: string;
  [other: string]: unknown;
}

function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`bad mapping character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeValue(value: number): string {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let text = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    text += BASE64[digit];
  } while (rest > 0);
  return text;
}

/** `map` without the segments whose source `keep` rejects. */
export function trimSourceMap(
  map: RawSourceMap,
  keep: (source: string) => boolean,
): RawSourceMap {
  const kept = map.sources.map(keep);
  // Absolute values carried across segments (all but the column restart
  // on every generated line).
  const read = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((line) => {
    let readColumn = 0;
    let writtenColumn = 0;
    const out: string[] = [];
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const [column, source, sourceLine, sourceColumn, name] =
        decodeSegment(segment);
      readColumn += column;
      if (source === undefined) continue;
      read.source += source;
      read.line += sourceLine;
      read.column += sourceColumn;
      if (name !== undefined) read.name += name;
      if (!kept[read.source]) continue;
      let text =
        encodeValue(readColumn - writtenColumn) +
        encodeValue(read.source - written.source) +
        encodeValue(read.line - written.line) +
        encodeValue(read.column - written.column);
      writtenColumn = readColumn;
      written.source = read.source;
      written.line = read.line;
      written.column = read.column;
      if (name !== undefined) {
        text += encodeValue(read.name - written.name);
        written.name = read.name;
      }
      out.push(text);
    }
    return out.join(',');
  });
  return { ...map, mappings: lines.join(';') };
}
