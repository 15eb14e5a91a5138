import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import {
  type RawSourceMap,
  trimSourceMap,
} from '../../../../scripts/source-map-trim';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * The production bundle's source map (scripts/bundle-service.ts) keeps the
 * project's own mappings only, unchanged, so that a stack trace names the
 * TypeScript sources without Node parsing every library's lines.
 */

/** Node's own parser, the one stack traces go through. */
const parse = (map: RawSourceMap) =>
  new SourceMap(map as unknown as SourceMapPayload);

/** What `map` says about each generated position. */
function lookups(map: RawSourceMap, positions: [number, number][]) {
  const parsed = parse(map);
  return positions.map(
    ([line, column]) =>
      parsed.findEntry(line, column) as { originalSource?: string },
  );
}

describe('Source map of the bundle', () => {
  // Two sources on one generated line: app code at columns 0 and 20,
  // library code at 10 and 30 (segments: column, source, line, column).
  const map: RawSourceMap = {
    version: 3,
    sources: ['../../src/a.ts', '../../node_modules/lib/index.js'],
    names: ['run'],
    // absolute: [0,0,0,0] [10,1,5,2] [20,0,3,4,name 0] [30,1,7,0]
    mappings: 'AAAA,UCKE,UDFEA,UCIJ',
  };

  it('keeps the project mappings exactly and drops the libraries', () => {
    // Well-formed fixture: four mappings, two per source.
    const before = lookups(map, [
      [0, 0],
      [0, 10],
      [0, 20],
      [0, 30],
    ]);
    expect(before.map((entry) => entry.originalSource)).toEqual([
      expect.stringMatching(/src\/a\.ts$/),
      expect.stringMatching(/node_modules\/lib\/index\.js$/),
      expect.stringMatching(/src\/a\.ts$/),
      expect.stringMatching(/node_modules\/lib\/index\.js$/),
    ]);

    const trimmed = trimSourceMap(
      map,
      (source) => !source.includes('node_modules/'),
    );
    const parsed = parse(trimmed);
    for (const [column, entry] of [
      [0, before[0]],
      [20, before[2]],
    ] as const) {
      expect(parsed.findEntry(0, column)).toEqual(entry);
    }
    // Library columns now fall back to the project mapping before them.
    expect(parsed.findEntry(0, 10)).toMatchObject({
      originalSource: expect.stringMatching(/src\/a\.ts$/),
      originalLine: 0,
      originalColumn: 0,
    });
    expect(parsed.findEntry(0, 30)).toMatchObject({
      originalSource: expect.stringMatching(/src\/a\.ts$/),
      originalLine: 3,
    });
  });

  it('the built bundle maps to the TypeScript sources and never into node_modules', () => {
    const file = join(REPO_ROOT, 'dist', 'service', 'app.js.map');
    if (!existsSync(file)) throw new Error(`${file}: run \`npm run build\``);
    const built = JSON.parse(readFileSync(file, 'utf8')) as RawSourceMap;
    const parsed = parse(built);
    const code = readFileSync(
      join(REPO_ROOT, 'dist', 'service', 'app.js'),
      'utf8',
    );
    const lines = code.split('\n');
    const sources = new Set<string>();
    lines.forEach((text, line) => {
      for (let column = 0; column < text.length; column += 499) {
        const entry = parsed.findEntry(line, column);
        if ('originalSource' in entry) sources.add(entry.originalSource);
      }
    });
    const all = [...sources];
    expect(all.some((source) => source.endsWith('src/main.ts'))).toBe(true);
    expect(all.filter((source) => source.includes('node_modules/'))).toEqual(
      [],
    );
  });
});
