import { jsonSqlFor } from '../database/sql';
import { containsPattern, foldAscii, nameKeySql } from './project-search';

describe('project search folding', () => {
  it('folds ASCII letters only, as both databases’ expressions do', () => {
    expect(foldAscii('ÉMILE Launch')).toBe('Émile launch');
  });

  it('escapes %, _ and the escape character itself in the contains pattern', () => {
    expect(containsPattern('50%_A\\b')).toBe('%50\\%\\_a\\\\b%');
  });

  it('sorts names by their first 100 folded characters, byte by byte, on both databases', () => {
    expect(nameKeySql(jsonSqlFor('better-sqlite3'), 'p')).toBe(
      'substr(lower("p"."name"), 1, 100)',
    );
    expect(nameKeySql(jsonSqlFor('postgres'), 'p')).toBe(
      `substr(translate("p"."name", 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 1, 100) COLLATE "C"`,
    );
  });
});
