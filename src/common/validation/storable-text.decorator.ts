import { Matches } from 'class-validator';
import { Messages } from './messages';

/** No NUL character, as a regular expression and an OpenAPI `pattern`. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/**
 * Text that every supported database can store and compare. PostgreSQL
 * rejects the NUL character in text, SQLite stores it; refusing it up front
 * keeps both databases answering the same way.
 */
export function StorableText(): PropertyDecorator {
  return Matches(new RegExp(NO_NUL_PATTERN), Messages.noNulCharacter());
}
