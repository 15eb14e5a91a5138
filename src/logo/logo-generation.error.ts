import { PublicError } from '../failures/public.error';

/**
 * A logo generation failure whose message the client sees (rules
 * 2, 5 and 6): the missing key, the upstream error text, an invalid upstream
 * response, a timeout. Messages never carry the key or an internal address.
 */
export class LogoGenerationError extends PublicError {}
