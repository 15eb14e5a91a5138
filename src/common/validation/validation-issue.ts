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

/**
 * The rule a field is reported by, as Zod would pick it: a missing value
 * first, then a wrong type ("must not contain NUL" or "too big" would
 * mislead about an array or a number), then the first failed rule in the
 * order the DTO declares them. class-validator records a property's other
 * constraints bottom-up (decorators apply from the last one), so that is
 * the last of them.
 */
function reportedConstraint(
  constraints: Record<string, string>,
): [string, string] | undefined {
  const failed = Object.entries(constraints);
  return (
    failed.find(([name]) => name === 'isDefined') ??
    failed.findLast(([name]) => CODE_BY_CONSTRAINT[name] === 'invalid_type') ??
    failed.at(-1)
  );
}

export function toValidationIssues(
  errors: ValidationError[],
  parentPath: (string | number)[] = [],
): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = [
      ...parentPath,
      /^\d+$/.test(error.property) ? Number(error.property) : error.property,
    ];
    const reported = reportedConstraint(error.constraints ?? {});
    const own: ValidationIssue[] = reported
      ? [
          {
            path,
            message: reported[1],
            code: CODE_BY_CONSTRAINT[reported[0]] ?? 'custom',
          },
        ]
      : [];
    return [...own, ...toValidationIssues(error.children ?? [], path)];
  });
}
