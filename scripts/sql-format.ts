/**
 * Lays out one SQL statement for sql/<dialect>/*.sql: each clause on a line
 * of its own, a sub-select in parentheses indented one step deeper, and each
 * member of the JSON the list and detail statements build with `||` (from
 * the `||` before a quoted name such as '"id":') on a line of its own, so
 * a diff names the clause or field that changed. Only the
 * whitespace between tokens changes: quoted text and identifiers are kept
 * as they are, and keywords are recognised in upper case only, as the
 * repositories and TypeORM write them.
 */

/** Clause keywords, longest first, each starting a line at its depth. */
const CLAUSES: readonly string[][] = [
  ['DO', 'UPDATE', 'SET'],
  ['ORDER', 'BY'],
  ['GROUP', 'BY'],
  ['INSERT', 'INTO'],
  ['DELETE', 'FROM'],
  ['ON', 'CONFLICT'],
  ['LEFT', 'JOIN'],
  ['INNER', 'JOIN'],
  ['UNION', 'ALL'],
  ['FOR', 'UPDATE'],
  ['WITH'],
  ['SELECT'],
  ['FROM'],
  ['JOIN'],
  ['WHERE'],
  ['HAVING'],
  ['LIMIT'],
  ['OFFSET'],
  ['VALUES'],
  ['UPDATE'],
  ['SET'],
  ['RETURNING'],
  ['UNION'],
];

const TOKEN =
  /'(?:[^']|'')*'|"(?:[^"]|"")*"|\s+|\|\||[A-Za-z_][A-Za-z0-9_]*|\$\d+|[\s\S]/g;

const INDENT = '  ';

export function formatSql(statement: string): string {
  /** The statement's tokens, each with whether a space preceded it. */
  const tokens: string[] = [];
  const spaced: boolean[] = [];
  let space = false;
  for (const token of statement.match(TOKEN) ?? []) {
    if (/^\s+$/.test(token)) {
      space = true;
      continue;
    }
    tokens.push(token);
    spaced.push(space);
    space = false;
  }
  const lines: string[] = [];
  let line = '';
  let depth = 0;
  /**
   * Per open parenthesis: `outer`, the depth to return to, when it holds a
   * sub-select (laid out as a block, one step deeper than the line that
   * opens it); `members` when it holds json_object's name/value pairs, one
   * pair per line (SQLite's JSON of the list and detail statements).
   */
  const parens: {
    outer?: number;
    members?: { indent: number; commas: number };
  }[] = [];
  const inBlock = () =>
    parens.length === 0 || parens[parens.length - 1].outer !== undefined;
  const indentOfLine = () =>
    (line.length - line.trimStart().length) / INDENT.length;
  const newLine = (indent: number) => {
    if (line.trim() !== '') lines.push(line.trimEnd());
    line = INDENT.repeat(indent);
  };
  const append = (text: string, withSpace: boolean) => {
    line += line.trim() !== '' && withSpace ? ` ${text}` : text;
  };
  const clauseAt = (index: number): string[] | undefined =>
    CLAUSES.find((words) =>
      words.every((word, offset) => tokens[index + offset] === word),
    );

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index];
    const clause = inBlock() ? clauseAt(index) : undefined;
    if (clause) {
      newLine(depth);
      append(clause.join(' '), true);
      index += clause.length - 1;
    } else if (token === '(') {
      const subSelect =
        tokens[index + 1] === 'SELECT' || tokens[index + 1] === 'WITH';
      const members = tokens[index - 1] === 'json_object';
      append('(', spaced[index]);
      if (subSelect) {
        parens.push({ outer: depth });
        depth = indentOfLine() + 1;
      } else if (members) {
        parens.push({ members: { indent: indentOfLine() + 1, commas: 0 } });
      } else {
        parens.push({});
      }
    } else if (token === ')') {
      const { outer } = parens.pop() ?? {};
      if (outer !== undefined) {
        newLine(depth - 1);
        depth = outer;
      }
      append(')', spaced[index]);
    } else if (token === ',' && parens.at(-1)?.members) {
      const members = parens.at(-1)?.members as {
        indent: number;
        commas: number;
      };
      append(',', spaced[index]);
      // Every second argument is a name: its pair starts a line.
      if (++members.commas % 2 === 0) newLine(members.indent);
    } else if (token === '||' && /^'.*"/.test(tokens[index + 1] ?? '')) {
      newLine(depth + 1);
      append('||', true);
    } else {
      append(token, spaced[index]);
    }
  }
  newLine(0);
  return lines.join('\n');
}
