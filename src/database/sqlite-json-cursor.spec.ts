import Sqlite from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteJsonCursor } from './sqlite-json-cursor';

describe('SqliteJsonCursor', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'json-cursor-'));
    file = join(dir, 'cursor.db');
    const db = new Sqlite(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE docs (n INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO docs (body) VALUES (?)');
    for (let n = 1; n <= 5; n++) insert.run(JSON.stringify({ n }));
    db.close();
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  const readAll = async (cursor: SqliteJsonCursor) => {
    const chunks: string[][] = [];
    for (let chunk = await cursor.next(); chunk; chunk = await cursor.next()) {
      chunks.push(chunk);
    }
    return chunks;
  };

  it('reads every row, in order, then ends', async () => {
    const cursor = new SqliteJsonCursor(
      file,
      'SELECT body FROM docs ORDER BY n',
      [],
    );
    const chunks = await readAll(cursor);
    expect(chunks.flat()).toEqual([1, 2, 3, 4, 5].map((n) => `{"n":${n}}`));
  });

  it('reads at least one row per call even when the process was kept waiting past its time slice, so a slow machine never ends a list early', async () => {
    // Every reading of the clock is 10 ms after the last: each turn is
    // "over" before its first row.
    let now = 0;
    jest.spyOn(performance, 'now').mockImplementation(() => (now += 10));
    const cursor = new SqliteJsonCursor(
      file,
      'SELECT body FROM docs ORDER BY n',
      [],
    );
    const chunks = await readAll(cursor);
    expect(chunks).toEqual([1, 2, 3, 4, 5].map((n) => [`{"n":${n}}`]));
  });
});
