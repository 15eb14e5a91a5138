import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * README.md and docs/ are read in a clone: every relative link must lead to
 * a file of the repository (and to a heading that exists), and none may
 * lead outside it.
 */

const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

/** The text outside fenced code blocks, where links are links. */
const prose = (markdown: string) =>
  markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map(
    (match) => match[1],
  );
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of withoutCode.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** What is wrong with one link of `file`, or undefined. */
function problem(file: string, target: string): string | undefined {
  if (/^(https?|mailto):/.test(target)) return undefined;
  const [path, anchor] = target.split('#');
  if (isAbsolute(path)) return 'an absolute path';
  // `#heading` alone points into the document itself.
  const absolute = resolve(
    REPO_ROOT,
    path === '' ? file : join(dirname(file), path),
  );
  const inside = relative(REPO_ROOT, absolute);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    return 'outside the repository';
  }
  if (!existsSync(absolute)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (statSync(absolute).isDirectory() || !absolute.endsWith('.md')) {
    return 'an anchor into a file that is not Markdown';
  }
  return anchors(readFileSync(absolute, 'utf8')).has(anchor)
    ? undefined
    : `no heading #${anchor}`;
}

describe('links in README.md and docs/', () => {
  it('finds the documents and their links', () => {
    expect(DOCUMENTS).toEqual(
      expect.arrayContaining(['README.md', 'docs/api.md']),
    );
    expect(linkTargets(read('README.md'))).toContain('docs/api.md');
  });

  it.each(DOCUMENTS)(
    '%s: every relative link resolves inside the repository',
    (file) => {
      const broken = linkTargets(read(file))
        .map((target) => [target, problem(file, target)])
        .filter(([, reason]) => reason !== undefined)
        .map(([target, reason]) => `${target}: ${reason}`);
      expect(broken).toEqual([]);
    },
  );

  it.each(DOCUMENTS)(
    '%s: names no document that lives outside the repository',
    (file) => {
      expect(read(file)).not.toMatch(/\.\.\/shared|SPEC\.md|DESIGN\.md/);
    },
  );

  it('reports a link outside the repository, a missing file and a missing heading', () => {
    expect(problem('README.md', '../shared/SPEC.md')).toBe(
      'outside the repository',
    );
    expect(problem('docs/api.md', 'nothing.md')).toBe('no such file');
    expect(problem('README.md', 'docs/api.md#no-such-heading')).toBe(
      'no heading #no-such-heading',
    );
    expect(problem('README.md', '#quick-start')).toBeUndefined();
  });
});
