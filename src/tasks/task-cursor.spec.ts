import { newId } from '../common/ids';
import { InputValidationException } from '../failures/input-validation.error';
import { decodeTaskCursor, encodeTaskCursor } from './task-cursor';

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
