import { newId } from '../common/ids';
import { InputValidationException } from '../failures/input-validation.error';
import {
  decodeTaskCursor,
  encodeTaskCursor,
  newestFirstPage,
} from './task-cursor';

const ID = newId();
const AT = new Date('2026-03-01T12:00:00.123Z');

describe('task cursor', () => {
  it('reads back the cursor it wrote', () => {
    const text = encodeTaskCursor({ createdAt: AT, id: ID });
    expect(decodeTaskCursor(text)).toEqual({ createdAt: AT, id: ID });
  });

  it('refuses anything it did not write with 400 custom "Invalid cursor"', () => {
    const written = (value: unknown) =>
      Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const text of [
      '',
      'not base64 json',
      written({ createdAt: AT.toISOString(), id: ID }),
      written([AT.toISOString()]),
      written([AT.toISOString(), 'not-an-id']),
      written(['yesterday', ID]),
      // The same moment written another way: not this service's text.
      written(['2026-03-01T12:00:00.123+00:00', ID]),
      `${encodeTaskCursor({ createdAt: AT, id: ID })}=`,
    ]) {
      let refused: unknown;
      try {
        decodeTaskCursor(text);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(InputValidationException);
      expect((refused as InputValidationException).issues).toEqual([
        { path: ['cursor'], message: 'Invalid cursor', code: 'custom' },
      ]);
    }
  });
});

describe('newestFirstPage', () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      id: `01a226f9-0000-7000-8000-${String(i).padStart(12, '0')}`,
      createdAt: new Date(Date.UTC(2026, 10, 29, 0, 0, 60 - i)).toISOString(),
    }));

  it('reads one row more than the page to tell whether a next page exists, and points the cursor at the last row shown', async () => {
    const read = jest.fn((limit: number) => Promise.resolve(rows(limit)));
    const page = await newestFirstPage({ limit: 2 }, 50, async () => {}, read);
    expect(read).toHaveBeenCalledWith(3, undefined);
    expect(page.rows).toEqual(rows(2));
    expect(decodeTaskCursor(page.nextCursor!)).toEqual({
      id: rows(2)[1].id,
      createdAt: new Date(rows(2)[1].createdAt),
    });
  });

  it('has no next page when the extra row is not there, and uses the default size without a limit', async () => {
    const read = jest.fn(() => Promise.resolve(rows(3)));
    const page = await newestFirstPage({}, 5, async () => {}, read);
    expect(read).toHaveBeenCalledWith(6, undefined);
    expect(page).toEqual({ rows: rows(3), nextCursor: null });
  });

  it('refuses a cursor it did not write before asking whether the project is visible', async () => {
    const visible = jest.fn(async () => {});
    await expect(
      newestFirstPage({ cursor: 'nope' }, 5, visible, jest.fn()),
    ).rejects.toBeInstanceOf(InputValidationException);
    expect(visible).not.toHaveBeenCalled();
  });

  it('reads nothing for a project the caller cannot see', async () => {
    const read = jest.fn();
    const hidden = new Error('not found');
    await expect(
      newestFirstPage({}, 5, () => Promise.reject(hidden), read),
    ).rejects.toBe(hidden);
    expect(read).not.toHaveBeenCalled();
  });
});
