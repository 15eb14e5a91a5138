import { InputValidationException } from '../failures/input-validation.error';
import { decodeCursor, encodeCursor } from './project-cursor';

const ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const AT = '2026-11-22T03:39:09.321Z';
const text = (value: unknown) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

const issuesOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputValidationException);
    return (error as InputValidationException).issues;
  }
  throw new Error('no failure');
};

describe('project list cursors', () => {
  it('keep the [updatedAt, id] form in the default order, so those pages answer as before', () => {
    expect(encodeCursor({ key: AT, id: ID })).toBe(text([AT, ID]));
    expect(decodeCursor(text([AT, ID]))).toEqual({ key: AT, id: ID });
  });

  it('carry their sort and order in any other order, and come back in it', () => {
    const order = { sort: 'name', order: 'desc' } as const;
    const cursor = encodeCursor({ key: 'émile', id: ID }, order);
    expect(cursor).toBe(text(['name', 'desc', 'émile', ID]));
    expect(decodeCursor(cursor, order)).toEqual({ key: 'émile', id: ID });
  });

  it.each([
    ['a default cursor under sort=name', text([AT, ID]), 'name', 'asc'],
    [
      'a name cursor in the default order',
      text(['name', 'asc', 'a', ID]),
      'updatedAt',
      'desc',
    ],
    [
      'an ascending cursor descending',
      text(['createdAt', 'asc', AT, ID]),
      'createdAt',
      'desc',
    ],
  ] as const)(
    'refuse %s (400 naming the cursor)',
    (_label, cursor, sort, order) => {
      expect(issuesOf(() => decodeCursor(cursor, { sort, order }))).toEqual([
        {
          path: ['cursor'],
          message: expect.stringMatching(/^Cursor of another order/),
          code: 'custom',
        },
      ]);
    },
  );

  it.each([
    ['an unknown sort', text(['title', 'asc', 'a', ID])],
    ['an unknown order', text(['name', 'up', 'a', ID])],
    ['a time key that is not a time', text(['createdAt', 'asc', 'a', ID])],
    ['three fields', text(['name', 'a', ID])],
    ['an id not ours', text(['name', 'asc', 'a', 'x'])],
    ['a number for a key', text(['name', 'asc', 1, ID])],
    ['not JSON', 'bm90IGpzb24'],
  ])('refuse %s as Invalid cursor', (_label, cursor) => {
    expect(
      issuesOf(() => decodeCursor(cursor, { sort: 'name', order: 'asc' })),
    ).toEqual([
      { path: ['cursor'], message: 'Invalid cursor', code: 'custom' },
    ]);
  });
});
