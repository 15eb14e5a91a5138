import { Logger } from '@nestjs/common';
import { BatchedPurge } from './batched-purge';

/** A purge over `rows` expired rows, recording the limit of each batch. */
function purgeOver(rows: number, failAfterBatches = Infinity) {
  let left = rows;
  const batches: number[] = [];
  const logger = new Logger('test');
  const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  const purge = new BatchedPurge(
    'test rows',
    10,
    (_now, limit) => {
      if (batches.length >= failAfterBatches) {
        return Promise.reject(new Error('database gone'));
      }
      batches.push(limit);
      const deleted = Math.min(limit, left);
      left -= deleted;
      return Promise.resolve(deleted);
    },
    logger,
  );
  return { purge, batches, warn };
}

describe('BatchedPurge', () => {
  it('deletes in batches of its size until a batch comes back short, and returns the total', async () => {
    const { purge, batches } = purgeOver(25);
    expect(await purge.run()).toBe(25);
    expect(batches).toEqual([10, 10, 10]);
  });

  it('runs one more batch when the rows are a whole number of batches', async () => {
    const { purge, batches } = purgeOver(20);
    expect(await purge.run()).toBe(20);
    expect(batches).toEqual([10, 10, 10]);
  });

  it('logs a failed run once, naming what it purges, and returns what it had deleted', async () => {
    const { purge, warn } = purgeOver(100, 2);
    expect(await purge.run()).toBe(20);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      'Purging test rows failed: database gone',
    );
  });
});
