import type { ValidationError } from 'class-validator';

/**
 * One failed rule, in the shape clients of the original service (which used
 * Zod issues) already read: `details: [{ path, message, code }]`.
 */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

/** Zod's issue codes for the class-validator constraints our DTOs use. */
const CODE_BY_CONSTRAINT: Record<string, string> = {
  isDefined: 'invalid_type',
  isString: 'invalid_type',
  isArray: 'invalid_type',
  isObject: 'invalid_type',
  minLength: 'too_small',
  arrayMinSize: 'too_small',
  maxLength: 'too_big',
  arrayMaxSize: 'too_big',
  isIn: 'invalid_enum_value',
  isInt: 'invalid_type',
  min: 'too_small',
  max: 'too_big',
  matches: 'invalid_string',
};

export function toValidationIssues(
  errors: ValidationError[],
  parentPath: (string | number)[] = [],
): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = [
      ...parentPath,
      /^\d+$/.test(error.property) ? Number(error.property) : error.property,
    ];
    const own = Object.entries(error.constraints ?? {}).map(
      ([constraint, message]) => ({
        path,
        message,
        code: CODE_BY_CONSTRAINT[constraint] ?? 'custom',
      }),
    );
    return [...own, ...toValidationIssues(error.children ?? [], path)];
  });
}
