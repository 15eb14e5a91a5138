import { ConflictException } from '@nestjs/common';
import type { ErrorCode } from '../failures/error-codes';

/** 409 at creation: a site check without `assetId` needs a chosen landing page. */
export class NoChosenPageException extends ConflictException {
  readonly code: ErrorCode = 'nothing_chosen';

  constructor() {
    super(
      'The CODE section has no chosen landing page; choose one, or name the page (assetId)',
    );
  }
}
