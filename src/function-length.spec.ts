import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import * as ts from 'typescript';
import { sourceFilesUnder } from '../test/support/source-files';

/**
 * No function in src/ runs over MAX_LINES lines unless a comment right
 * before it says why, starting with LONG_REASON: a reader should see a
 * function whole, and a long one is usually two.
 */
const MAX_LINES = 80;
const LONG_REASON = 'Long on purpose:';

const sources = (): string[] =>
  sourceFilesUnder(__dirname).filter(
    (file) => !relative(__dirname, file).startsWith('generated'),
  );

/** The comments before a node, or before the statement that holds it. */
function leadingComments(node: ts.Node, text: string): string {
  let holder: ts.Node = node;
  while (
    holder.parent &&
    !ts.isSourceFile(holder.parent) &&
    !ts.isClassLike(holder.parent) &&
    !ts.isBlock(holder.parent)
  ) {
    holder = holder.parent;
  }
  const ranges = ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? [];
  return ranges.map((range) => text.slice(range.pos, range.end)).join('\n');
}

/** `file:line name (n lines)` for each long function without its reason. */
export function longFunctions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (
        lines > MAX_LINES &&
        !leadingComments(node, text).includes(LONG_REASON)
      ) {
        const name = node.name?.getText(source) ?? '(anonymous)';
        found.push(`${file}:${first + 1} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it(`no function in src/ is over ${MAX_LINES} lines without a reason`, () => {
    const found = sources().flatMap((file) =>
      longFunctions(relative(__dirname, file), readFileSync(file, 'utf8')),
    );
    expect(found).toEqual([]);
  });

  it('finds a long function, and takes one whose comment gives the reason', () => {
    const body = Array.from({ length: MAX_LINES }, () => '  work();').join(
      '\n',
    );
    const long = `function walk() {\n${body}\n}\n`;
    expect(longFunctions('a.ts', long)).toEqual(['a.ts:1 walk (82 lines)']);
    expect(
      longFunctions('a.ts', `// ${LONG_REASON} one state machine.\n${long}`),
    ).toEqual([]);
  });
});
