import type { ValidationIssue } from './validation-issue';

/**
 * The deepest nesting of arrays and objects a request body may have. No
 * field of this API holds more than an array of strings; the limit exists
 * because class-transformer walks every nested value recursively, and a
 * body a few thousand levels deep (a few kilobytes of "[[[[…") overflowed
 * the stack and answered 500 instead of 400.
 */
export const MAX_NESTING_DEPTH = 32;

/**
 * The first value nested deeper than `maxDepth`, as a validation issue (or
 * undefined). Walks iteratively: a recursive walk would overflow on exactly
 * the bodies it is meant to catch.
 */
export function tooDeepIssue(
  value: unknown,
  maxDepth = MAX_NESTING_DEPTH,
): ValidationIssue | undefined {
  const stack: Array<{ value: unknown; path: (string | number)[] }> = [
    { value, path: [] },
  ];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (path.length >= maxDepth) {
      return {
        path,
        message: `Nesting must be at most ${maxDepth} levels deep`,
        code: 'too_big',
      };
    }
    for (const [key, child] of Object.entries(current)) {
      stack.push({
        value: child,
        path: [...path, Array.isArray(current) ? Number(key) : key],
      });
    }
  }
  return undefined;
}
