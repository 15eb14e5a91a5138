import { constant, rowInsert, type ColumnValue } from './row-insert';

describe('rowInsert', () => {
  const insert = rowInsert<'id' | 'at' | 'note'>('things', {
    id: 'id',
    state: constant("'NEW'"),
    createdAt: 'at',
    note: 'note',
    updatedAt: 'at',
    doneAt: constant('NULL'),
  });

  it('lists every column in the order given, constants written into the statement', () => {
    expect(insert.text).toBe(
      `INSERT INTO "things" ("id", "state", "createdAt", "note", "updatedAt", "doneAt") VALUES ($1, 'NEW', $2, $3, $2, NULL)`,
    );
  });

  it('binds each parameter once, numbered where it is first used', () => {
    expect(insert.params({ note: null, at: 'then', id: 'a' })).toEqual([
      'a',
      'then',
      null,
    ]);
  });

  it('fails to compile when a column of the row type is left out', () => {
    type Row = { id: string; state: string };
    const columns = {
      id: 'id',
    };
    // @ts-expect-error state is missing
    const checked = columns satisfies { [K in keyof Row]-?: ColumnValue<'id'> };
    expect(rowInsert('rows', checked).text).toBe(
      'INSERT INTO "rows" ("id") VALUES ($1)',
    );
  });
});
