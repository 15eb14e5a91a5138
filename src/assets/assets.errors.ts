import {
  ConflictException,
  ForbiddenException,
  NotFoundException,
} from '@nestjs/common';

/** 404 {error:"Asset not found"}: no such asset in that project. */
export class AssetNotFoundException extends NotFoundException {
  constructor() {
    super('Asset not found');
  }
}

/** 409: the project holds ASSET_MAX_PER_PROJECT assets already. */
export class AssetLimitReachedException extends ConflictException {
  constructor(limit: number) {
    super(
      `The project already holds ${limit} assets, the most it may; delete one first`,
    );
  }
}

/**
 * 403: a content URL whose signature is missing, forged or expired (with
 * AUTH_MODE=oidc). Checked before any lookup, so it tells nothing of the
 * asset; a fresh answer holding the asset has a working URL.
 */
export class AssetUrlRefusedException extends ForbiddenException {
  constructor() {
    super('This asset URL has expired or is not valid');
  }
}
