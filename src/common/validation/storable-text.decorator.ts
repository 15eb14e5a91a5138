import { Matches } from 'class-validator';
import { Messages } from './messages';

/**
 * Text that every supported database can store and compare. PostgreSQL
 * rejects the NUL character in text, SQLite stores it; refusing it up front
 * keeps both databases answering the same way.
 */
export function StorableText(): PropertyDecorator {
  // eslint-disable-next-line no-control-regex
  return Matches(/^[^\u0000]*$/, Messages.noNulCharacter());
}
