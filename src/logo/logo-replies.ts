import { HttpStatus } from '@nestjs/common';
import type { JsonReply } from '../common/http/json-reply';
import { LOGO_SUCCESS_MESSAGE } from './logo.constants';
import type { GeneratedLogo } from './generated-logo';

/**
 * How a generated logo is answered over HTTP, also for the answer an
 * Idempotency-Key stores (so a replay is the same answer).
 */
export const generatedLogoReply = ({ logoUrl }: GeneratedLogo): JsonReply => ({
  status: HttpStatus.OK,
  headers: {},
  body: JSON.stringify({
    success: true,
    logoUrl,
    message: LOGO_SUCCESS_MESSAGE,
  }),
});
