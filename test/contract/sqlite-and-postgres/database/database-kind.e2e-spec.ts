import { MIGRATIONS } from '../../../../migrations';
import { TEST_DATABASE } from '../../../support/test-database';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('the e2e pass runs on the database it names', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it(`the app under test uses ${TEST_DATABASE}`, () => {
    expect(t.dataSource.options.type).toBe(
      TEST_DATABASE === 'postgres' ? 'postgres' : 'better-sqlite3',
    );
  });

  it('the schema was made by the migrations, each applied once', async () => {
    const rows: Array<{ name: string }> = await t.dataSource.query(
      'SELECT name FROM migrations',
    );
    expect(rows.map((row) => row.name)).toEqual(
      MIGRATIONS.map((migration) => migration.name),
    );
  });
});
