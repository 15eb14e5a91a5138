import { MAX_NESTING_DEPTH, tooDeepIssue } from './nesting-depth';

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

describe('tooDeepIssue (bodies nested deeper than the limit)', () => {
  it('accepts a body nested exactly to the limit', async () => {
    expect(await tooDeepIssue(nested(MAX_NESTING_DEPTH))).toBeUndefined();
  });

  it('reports the path of the first value past the limit', async () => {
    expect(await tooDeepIssue({ a: nested(MAX_NESTING_DEPTH) })).toEqual({
      path: ['a', ...Array<number>(MAX_NESTING_DEPTH - 1).fill(0)],
      message: `Nesting must be at most ${MAX_NESTING_DEPTH} levels deep`,
      code: 'too_big',
    });
  });

  it('walks 100,000 levels without overflowing the stack', async () => {
    expect((await tooDeepIssue(nested(100_000)))?.code).toBe('too_big');
  });

  it('accepts flat bodies and plain values', async () => {
    expect(await tooDeepIssue({ name: 'P', colors: ['red'] })).toBeUndefined();
    expect(await tooDeepIssue('text')).toBeUndefined();
    expect(await tooDeepIssue(null)).toBeUndefined();
  });
});
