import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * docs/development.md's "Layout" is a newcomer's map of src/: every folder
 * under src/ must be on it. A top-level folder has its own entry (a line
 * `  name/` under `src/`); a folder below it is named (`sub/`) in its
 * parent's entry, so the map stays one line of thought per feature.
 */

const DEVELOPMENT = 'docs/development.md';

/** Every folder under src/, as paths relative to src/ ("tasks/engine"). */
function sourceFolders(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      return [path, ...sourceFolders(root, path)];
    });
}

/** The src/ part of the Layout section's code block, one string per line. */
function sourceBlock(markdown: string): string[] {
  const section = markdown.split(/^## Layout$/m)[1]?.split(/^## /m)[0];
  const block = section?.match(/^```\n([\s\S]*?)^```/m)?.[1];
  if (block === undefined) throw new Error('no code block under "## Layout"');
  const lines = block.split('\n');
  const start = lines.indexOf('src/');
  if (start === -1) throw new Error('no "src/" line in the Layout block');
  const rest = lines.slice(start + 1);
  // The block goes on with the next top-level entry (dev-servers/, config/…).
  const end = rest.findIndex((line) => /^\S/.test(line));
  return end === -1 ? rest : rest.slice(0, end);
}

/** The entries of src/: a top-level name and the text that describes it. */
function entries(block: string[]): Map<string, string> {
  const result = new Map<string, string>();
  let current: string | undefined;
  for (const line of block) {
    const entry = line.match(/^ {2}(\S+)/);
    if (entry) {
      current = entry[1];
      result.set(current, line);
    } else if (current !== undefined) {
      result.set(current, `${result.get(current)}\n${line}`);
    }
  }
  return result;
}

/** The folders under src/ that the map leaves out. */
function missingFolders(folders: string[], markdown: string): string[] {
  const map = entries(sourceBlock(markdown));
  return folders.filter((folder) => {
    const [top, ...below] = folder.split('/');
    const entry = map.get(`${top}/`);
    if (entry === undefined) return true;
    if (below.length === 0) return false;
    const named = new RegExp(`(^|[\\s(,])${below.join('/')}/`);
    return !named.test(entry.replace(/^ {2}\S+/, ''));
  });
}

/** Entries for folders src/ no longer has. */
function staleEntries(folders: string[], markdown: string): string[] {
  return [...entries(sourceBlock(markdown)).keys()].filter(
    (name) => name.endsWith('/') && !folders.includes(name.slice(0, -1)),
  );
}

describe('docs/development.md maps src/', () => {
  const markdown = readFileSync(join(REPO_ROOT, DEVELOPMENT), 'utf8');
  const folders = sourceFolders(join(REPO_ROOT, 'src'));

  it('reads the folders and the map', () => {
    expect(folders).toEqual(expect.arrayContaining(['tasks', 'tasks/engine']));
    expect([...entries(sourceBlock(markdown)).keys()]).toEqual(
      expect.arrayContaining(['main.ts', 'tasks/']),
    );
  });

  it('lists every folder under src/ in the Layout section', () => {
    expect(missingFolders(folders, markdown)).toEqual([]);
  });

  it('lists no folder that src/ does not have', () => {
    expect(staleEntries(folders, markdown)).toEqual([]);
  });

  it('reports a folder without an entry and a subfolder its parent does not name', () => {
    const map = [
      '## Layout',
      '',
      '```',
      'src/',
      '  tasks/   tasks: engine/ (who delivers them)',
      '  gone/    a folder deleted since',
      'docs/      this documentation',
      '```',
    ].join('\n');
    expect(
      missingFolders(
        ['tasks', 'tasks/engine', 'tasks/kinds', 'events', 'docs'],
        map,
      ),
    ).toEqual(['tasks/kinds', 'events', 'docs']);
    expect(staleEntries(['tasks'], map)).toEqual(['gone/']);
  });
});
