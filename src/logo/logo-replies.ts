import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import { LOGO_SUCCESS_MESSAGE } from './logo.constants';
import type { GeneratedLogo } from './generated-logo';

/**
 * How a generated logo is answered over HTTP, also for the answer an
 * Idempotency-Key stores (so a replay is the same answer).
 */
export const generatedLogoReply = ({
  logoUrl,
  expiresAt,
}: GeneratedLogo): Reply =>
  new Reply(
    HttpStatus.OK,
    {},
    JSON.stringify({
      success: true,
      logoUrl,
      message: LOGO_SUCCESS_MESSAGE,
      expiresAt,
    }),
  );
