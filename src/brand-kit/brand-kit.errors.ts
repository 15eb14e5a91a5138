import { ConflictException, NotFoundException } from '@nestjs/common';
import type { ErrorCode } from '../failures/error-codes';

/** 409 at creation: a brand kit without `assetId` needs a chosen logo. */
export class NoChosenLogoException extends ConflictException {
  readonly code: ErrorCode = 'nothing_chosen';

  constructor() {
    super(
      'The LOGO section has no chosen logo; choose one, or name the asset (assetId)',
    );
  }
}

/** 409 at creation: `assetId` names no PNG, JPEG or WebP asset of the project. */
export class NotALogoException extends ConflictException {
  constructor() {
    super('assetId names no PNG, JPEG or WebP asset of this project');
  }
}

/** 404 {error:"No brand kit for the chosen logo"}: GET …/brand-kit.zip before a kit was made. */
export class NoBrandKitException extends NotFoundException {
  constructor() {
    super('No brand kit for the chosen logo');
  }
}
