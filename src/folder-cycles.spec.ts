import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The top-level folders of src/ form layers: when a file of one folder
 * imports another folder, nothing in that other folder may import it back
 * (spec files, which may borrow fixtures, aside). A cycle means neither folder can be
 * read, moved or tested without the other.
 *
 * Cycles still being taken apart elsewhere, as "a <-> b". Each is checked
 * to still exist, so an entry fails once its cycle is gone: remove it then.
 */
const KNOWN_CYCLES: readonly string[] = [
  'assets <-> projects',
  'auth <-> projects',
];

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

/** folder -> imported folder -> one file that imports it (for the report). */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!from) continue;
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
 * Every pair of folders that import each other, each once. Longer loops
 * (a -> b -> c -> a) are not looked for yet: src/generated/metadata.ts,
 * which the OpenAPI plugin writes, imports every DTO folder and closes
 * several of them through src/docs.
 */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  for (const [from, edges] of graph) {
    for (const to of edges.keys()) {
      if (from < to && graph.get(to)?.has(from)) found.push([from, to]);
    }
  }
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

const describeCycle = (cycle: string[]) => cycle.join(' <-> ');

function explain(
  cycle: string[],
  graph: Map<string, Map<string, string>>,
): string {
  const steps = cycle.map((from, index) => {
    const to = cycle[(index + 1) % cycle.length];
    return `  ${from} -> ${to} (e.g. src/${graph.get(from)?.get(to)})`;
  });
  return [describeCycle(cycle), ...steps].join('\n');
}

describe('folders under src/', () => {
  const graph = folderImports();
  const all = cycles(graph);

  it('never import each other both ways', () => {
    const unexpected = all
      .filter((cycle) => !KNOWN_CYCLES.includes(describeCycle(cycle)))
      .map((cycle) => explain(cycle, graph));
    expect(unexpected).toEqual([]);
  });

  it('list as known only cycles that still exist', () => {
    const existing = new Set(all.map(describeCycle));
    expect(KNOWN_CYCLES.filter((cycle) => !existing.has(cycle))).toEqual([]);
  });
});
