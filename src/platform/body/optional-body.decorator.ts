import { SetMetadata } from '@nestjs/common';

export const OPTIONAL_BODY = 'workspace:optional-body';

/**
 * A POST whose body may be left out (a task's cancel, a stream ticket):
 * a request that carries no body (no Transfer-Encoding, and no or a zero
 * Content-Length) is read as `{}`, needs no Content-Type, and is never
 * refused 415 under CORS_ORIGINS, since there is nothing to read as JSON.
 * A body that is sent is still read as JSON, with every rule of a body.
 */
export const OptionalBody = () => SetMetadata(OPTIONAL_BODY, true);
