import { createHash, randomBytes } from 'node:crypto';
import { sha256Of } from './content-hash';

describe('sha256Of', () => {
  it.each([0, 1, 512 * 1024, 512 * 1024 + 1, 3 * 1024 * 1024 + 17])(
    'hashes %i bytes in slices to the same digest as one update',
    async (size) => {
      const bytes = randomBytes(size);
      expect(await sha256Of(bytes)).toBe(
        createHash('sha256').update(bytes).digest('hex'),
      );
    },
  );
});
