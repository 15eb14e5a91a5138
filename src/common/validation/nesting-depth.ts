import { SLICE_MS } from '../concurrency/request-work-slice';
import type { ValidationIssue } from '../../failures/validation-issue';

/**
 * The deepest nesting of arrays and objects a request body may have. No
 * field of this API holds more than an array of strings; the limit exists
 * because class-transformer walks every nested value recursively, and a
 * body a few thousand levels deep (a few kilobytes of "[[[[…") overflowed
 * the stack and answered 500 instead of 400.
 */
export const MAX_NESTING_DEPTH = 32;

/** A value to visit, and how it was reached (its path is built only if needed). */
interface Visit {
  value: unknown;
  depth: number;
  key: string | number;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) {
    path.push(at.key);
  }
  return path.reverse();
}

/**
 * The first value nested deeper than `maxDepth`, as a validation issue (or
 * undefined). Walks iteratively: a recursive walk would overflow on exactly
 * the bodies it is meant to catch. Each value costs the same whatever its
 * depth: a path is built only for the value reported.
 */
export async function tooDeepIssue(
  value: unknown,
  maxDepth = MAX_NESTING_DEPTH,
): Promise<ValidationIssue | undefined> {
  const stack: Visit[] = [{ value, depth: 0, key: '', parent: undefined }];
  let sliceStart = performance.now();
  let visited = 0;
  while (stack.length > 0) {
    // A body of 100,000 arrays takes tens of milliseconds to walk: the
    // event loop gets a turn every SLICE_MS meanwhile.
    if (++visited % 256 === 0 && performance.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current !== 'object' || current === null) continue;
    if (visit.depth >= maxDepth) {
      return {
        path: pathOf(visit),
        message: `Nesting must be at most ${maxDepth} levels deep`,
        code: 'too_big',
      };
    }
    const depth = visit.depth + 1;
    // Only objects and arrays are visited: a scalar cannot be too deep.
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        const child: unknown = current[index];
        if (typeof child === 'object' && child !== null) {
          stack.push({ value: child, depth, key: index, parent: visit });
        }
      }
    } else {
      for (const key in current) {
        const child: unknown = (current as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          stack.push({ value: child, depth, key, parent: visit });
        }
      }
    }
  }
  return undefined;
}
