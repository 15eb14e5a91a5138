import type { ValidationOptions } from 'class-validator';

/**
 * Validation messages worded as Zod words them, so clients of the original
 * service see the texts they already know.
 */
const message = (text: string, each = false): ValidationOptions => ({
  message: text,
  each,
});

export const Messages = {
  required: () => message('Required'),
  string: () => message('Expected string'),
  array: () => message('Expected array'),
  object: () => message('Expected object'),
  eachString: () => message('Expected every item to be a string', true),
  minChars: (n: number) =>
    message(`String must contain at least ${n} character(s)`),
  maxChars: (n: number) =>
    message(`String must contain at most ${n} character(s)`),
  integer: () => message('Expected integer'),
  minNumber: (n: number) =>
    message(`Number must be greater than or equal to ${n}`),
  maxNumber: (n: number) =>
    message(`Number must be less than or equal to ${n}`),
  minItems: (n: number) =>
    message(`Array must contain at least ${n} element(s)`),
  maxItems: (n: number) =>
    message(`Array must contain at most ${n} element(s)`),
  noNulCharacter: () => message('String must not contain NUL characters'),
  wellFormed: () =>
    message('String must be well-formed Unicode (no lone surrogates)'),
  oneOf: (values: readonly string[]) =>
    message(
      `Invalid enum value. Expected ${values.map((v) => `'${v}'`).join(' | ')}`,
    ),
};
