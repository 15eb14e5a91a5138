import { ValidateIf } from 'class-validator';

/**
 * An optional field as the contract means it: it may be left out, but when
 * present it must pass its rules. Unlike class-validator's IsOptional, a
 * `null` is not treated as absent.
 */
export function Optional(): PropertyDecorator {
  return ValidateIf((object: object, value: unknown) => value !== undefined);
}
