import { Matches, ValidateBy, type ValidationOptions } from 'class-validator';
import { EachItem } from './each-item';
import { Messages } from './messages';

/** No NUL character, as a regular expression and an OpenAPI `pattern`. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/** The name class-validator gives the well-formed rule's failures. */
export const IS_WELL_FORMED = 'isWellFormed';

/**
 * No lone UTF-16 surrogate ("\ud800" is valid JSON). Neither database can
 * store one as sent: SQLite hands back three U+FFFD, PostgreSQL one, so the
 * text a client reads back would not be the text it sent.
 */
export const isWellFormedText = (value: unknown): boolean =>
  typeof value === 'string' && value.isWellFormed();

/** Text that is well-formed Unicode (for each item of an array with `each`). */
export function WellFormedText(each = false): PropertyDecorator {
  const options: ValidationOptions = Messages.wellFormed();
  if (each) return EachItem(IS_WELL_FORMED, isWellFormedText, options);
  return ValidateBy(
    {
      name: IS_WELL_FORMED,
      validator: { validate: (value: unknown) => isWellFormedText(value) },
    },
    options,
  );
}

/**
 * Text that every supported database can store and compare, and hands back
 * as sent. PostgreSQL rejects the NUL character in text, SQLite stores it;
 * refusing it up front keeps both databases answering the same way.
 */
export function StorableText(): PropertyDecorator {
  const noNul = Matches(new RegExp(NO_NUL_PATTERN), Messages.noNulCharacter());
  const wellFormed = WellFormedText();
  // Applied well-formed first, so that the NUL rule counts as declared
  // first (see validation-issue.ts) when a value breaks both.
  return (target, property) => {
    wellFormed(target, property);
    noNul(target, property);
  };
}
