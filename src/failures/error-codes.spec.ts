import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFilesUnder } from '../../test/support/source-files';
import {
  ERROR_CODES,
  ERROR_CODE_LIST,
  codesOfStatus,
  defaultCodeOf,
  isErrorCode,
} from './error-codes';

const SRC = join(__dirname, '..');
const API_DOC = join(__dirname, '..', '..', 'docs', 'api.md');

/** The service's own sources: no tests, no generated files, not the list. */
const sources = (): string[] =>
  sourceFilesUnder(SRC).filter(
    (file) =>
      !file.includes(`${join('src', 'generated')}`) &&
      !file.endsWith(join('failures', 'error-codes.ts')),
  );

/** The codes of the "Error codes" table of docs/api.md, in its order. */
function documentedCodes(): string[] {
  const text = readFileSync(API_DOC, 'utf8');
  const start = text.indexOf('\n## Error codes\n');
  const end = text.indexOf('\n## ', start + 1);
  return [...text.slice(start, end).matchAll(/^\| `([a-z_]+)` \|/gm)].map(
    ([, code]) => code,
  );
}

const GENERAL_STATUSES = [
  400, 401, 403, 404, 408, 409, 412, 413, 415, 422, 429, 431, 500, 503,
];

describe('error codes', () => {
  it('are snake_case and unique', () => {
    for (const code of ERROR_CODE_LIST)
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(ERROR_CODE_LIST).size).toBe(ERROR_CODE_LIST.length);
  });

  it('each names only error statuses', () => {
    for (const code of ERROR_CODE_LIST) {
      for (const status of ERROR_CODES[code].statuses) {
        expect(status).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(600);
      }
    }
  });

  it('every one is produced somewhere: named by a source file or the general code of a status', () => {
    const text = sources()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const general = new Set(GENERAL_STATUSES.map(defaultCodeOf));
    const unproduced = ERROR_CODE_LIST.filter(
      (code) => !general.has(code) && !text.includes(`'${code}'`),
    );
    expect(unproduced).toEqual([]);
  });

  it('the general code of a status is one documented for that status', () => {
    for (const status of GENERAL_STATUSES) {
      expect(codesOfStatus(status)).toContain(defaultCodeOf(status));
    }
  });

  it('docs/api.md lists exactly these codes, in this order', () => {
    expect(documentedCodes()).toEqual(ERROR_CODE_LIST);
  });

  it('tells a code from any other string', () => {
    expect(isErrorCode('project_not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('Project not found')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});
