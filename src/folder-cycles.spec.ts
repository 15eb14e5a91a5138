import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The top-level folders of src/ form layers: no chain of imports between
 * them (a -> b, or a -> b -> c) leads back to where it started. A cycle
 * means none of its folders can be read, moved or tested without the
 * others. Spec files, which may borrow fixtures, are left out.
 */

/**
 * Folders whose imports are not followed: src/generated/metadata.ts is the
 * OpenAPI plugin's output (npm run openapi:metadata), a copy of every DTO's
 * metadata that imports each DTO folder; nothing in it is written by hand.
 */
const NOT_FOLLOWED: readonly string[] = ['generated'];

const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
      ? [path]
      : [];
  });
}

/** The top-level folder under src/ of a path, or undefined outside one. */
function folderOf(path: string): string | undefined {
  const parts = relative(SRC, path).split(sep);
  if (parts.length < 2 || parts[0] === '..') return undefined;
  return parts[0];
}

const IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]*)['"]/gm;

type Graph = Map<string, Map<string, string>>;

/** folder -> imported folder -> one file that imports it (for the report). */
function folderImports(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!from || NOT_FOLLOWED.includes(from)) continue;
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = folderOf(resolve(dirname(file), specifier));
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, relative(SRC, file));
      graph.set(from, edges);
    }
  }
  return graph;
}

/**
 * Every elementary cycle, each once: started from its alphabetically first
 * folder and walked only through folders after it.
 */
function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const walk = (start: string, path: string[]) => {
    const edges = graph.get(path[path.length - 1]);
    for (const next of [...(edges?.keys() ?? [])].sort()) {
      if (next === start) found.push(path);
      else if (next > start && !path.includes(next)) {
        walk(start, [...path, next]);
      }
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, [start]);
  return found;
}

/** The imports of a cycle, as [from, to]. */
const steps = (cycle: string[]) =>
  cycle.map((from, index) => [from, cycle[(index + 1) % cycle.length]]);

function explain(cycle: string[], graph: Graph): string {
  return [
    [...cycle, cycle[0]].join(' -> '),
    ...steps(cycle).map(
      ([from, to]) =>
        `  ${from} -> ${to} (e.g. src/${graph.get(from)?.get(to)})`,
    ),
  ].join('\n');
}

describe('folders under src/', () => {
  const graph = folderImports();
  const all = cycles(graph);

  it('import each other in one direction only (no cycles)', () => {
    expect(all.map((cycle) => explain(cycle, graph))).toEqual([]);
  });
});
