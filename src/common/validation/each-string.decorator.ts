import { isString } from 'class-validator';
import { EachItem } from './each-item';
import { Messages } from './messages';

/**
 * Every item is a string (a value that is not an array must be one). Named
 * `isString`, as class-validator's rule, so it is reported as a wrong type.
 */
export function EachString(): PropertyDecorator {
  return EachItem('isString', isString, Messages.eachString());
}
