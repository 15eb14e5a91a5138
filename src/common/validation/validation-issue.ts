import {
  getMetadataStorage,
  isString,
  type ValidationError,
} from 'class-validator';
import type { ValidationIssue } from '../../failures/validation-issue';
import { EACH_ITEM_CONTEXT } from './each-item';
import { IS_WELL_FORMED, isWellFormedText } from './storable-text.decorator';

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
  [IS_WELL_FORMED]: 'invalid_string',
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

/** Item checks of the rules our DTOs apply to each element of an array. */
const ITEM_CHECKS: Record<string, (item: unknown) => boolean> = {
  isString,
  [IS_WELL_FORMED]: isWellFormedText,
};

/**
 * For a rule declared with `each: true` on an array, the index of the first
 * item that breaks it: Zod reports `["colors", 1]`, and so do we.
 * class-validator names only the property, so the item is found again here.
 */
function failedItemIndex(
  error: ValidationError,
  constraint: string,
): number | undefined {
  const check = ITEM_CHECKS[constraint];
  if (!check || !Array.isArray(error.value) || !error.target) return undefined;
  const declaredForEachItem = getMetadataStorage()
    .getTargetValidationMetadatas(error.target.constructor, '', true, false)
    .some(
      (rule) =>
        rule.propertyName === error.property &&
        rule.name === constraint &&
        (rule.each || rule.context === EACH_ITEM_CONTEXT),
    );
  if (!declaredForEachItem) return undefined;
  const index = (error.value as unknown[]).findIndex((item) => !check(item));
  return index === -1 ? undefined : index;
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
    const item = reported && failedItemIndex(error, reported[0]);
    const own: ValidationIssue[] = reported
      ? [
          {
            path: item === undefined ? path : [...path, item],
            message: reported[1],
            code: CODE_BY_CONSTRAINT[reported[0]] ?? 'custom',
          },
        ]
      : [];
    return [...own, ...toValidationIssues(error.children ?? [], path)];
  });
}
