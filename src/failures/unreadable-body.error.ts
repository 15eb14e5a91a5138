import { PublicError } from './public.error';

/**
 * The body is empty or not JSON. The logo route answers 500 with
 * the parse error's message; project routes answer with their failure text.
 */
export class UnreadableBodyError extends PublicError {
  constructor(message: string) {
    super(message, undefined, 'invalid_json');
  }
}

/** The 400's text on a route that calls such a body the client's mistake. */
export const UNREADABLE_BODY_MESSAGE = 'Request body is not valid JSON';
