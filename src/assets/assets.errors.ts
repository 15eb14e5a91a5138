import type { ErrorCode } from '../failures/error-codes';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ServiceBusyError } from '../failures/retry-later.error';
import { LOGO_NOT_FOUND_MESSAGE } from '../logo/logo.constants';

/** 404 {error:"Asset not found"}: no such asset in that project. */
export class AssetNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'asset_not_found';

  constructor() {
    super('Asset not found');
  }
}

/**
 * 404 {error:"Logo not found"}: the previewed logo to keep has expired
 * (LOGO_URL_TTL_S) or never was, as its URL would answer.
 */
export class PreviewedLogoNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'logo_not_found';

  constructor() {
    super(LOGO_NOT_FOUND_MESSAGE);
  }
}

/** 409: the project holds ASSET_MAX_PER_PROJECT assets already. */
export class AssetLimitReachedException extends ConflictException {
  readonly code: ErrorCode = 'asset_limit_reached';

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
  readonly code: ErrorCode = 'asset_url_refused';

  constructor() {
    super('This asset URL has expired or is not valid');
  }
}

export const ASSET_STORAGE_UNAVAILABLE_MESSAGE =
  'Asset storage is unavailable; try again shortly';
export const ASSET_STORAGE_UNAVAILABLE_CODE =
  'asset_storage_unavailable' as const;
/** Retry-After of that 503: a bucket that failed is checked again after 2 s. */
export const ASSET_STORAGE_RETRY_AFTER_S = 5;

/**
 * 503 with Retry-After and `code: "asset_storage_unavailable"`: the bucket
 * of kept logos refused, failed or did not answer in time
 * (ASSET_S3_CONNECT_TIMEOUT_MS, ASSET_S3_REQUEST_TIMEOUT_MS). The SDK's
 * error is logged as `logDetail`, never sent.
 */
export class AssetStorageUnavailableError extends ServiceBusyError {
  override readonly code: ErrorCode = ASSET_STORAGE_UNAVAILABLE_CODE;

  constructor(readonly logDetail: string) {
    super(ASSET_STORAGE_UNAVAILABLE_MESSAGE, ASSET_STORAGE_RETRY_AFTER_S);
  }
}

/** 413 `file_too_large`: the uploaded file is over ASSET_UPLOAD_MAX_BYTES. */
export class FileTooLargeException extends PayloadTooLargeException {
  readonly code: ErrorCode = 'file_too_large';

  constructor(maxBytes: number) {
    super(
      `The file is larger than ${maxBytes} bytes, the most an upload may be`,
    );
  }
}

/**
 * 415 `unsupported_image_type`: the uploaded bytes are not a PNG, JPEG,
 * WebP or SVG, whatever type the upload declared.
 */
export class UnsupportedImageTypeException extends UnsupportedMediaTypeException {
  readonly code: ErrorCode = 'unsupported_image_type';

  constructor() {
    super('The file must be a PNG, JPEG, WebP or SVG image');
  }
}

/**
 * 400 `too_many_pixels`: the uploaded raster image has more pixels than
 * ASSET_UPLOAD_MAX_PIXELS, or a header whose size cannot be read.
 */
export class TooManyPixelsException extends BadRequestException {
  readonly code: ErrorCode = 'too_many_pixels';

  constructor(maxPixels: number) {
    super(
      `The image must state its size and have at most ${maxPixels} pixels (width × height)`,
    );
  }
}

/**
 * 400 `invalid_upload`: a multipart body that is not one `file` part with
 * the optional fields (a second file, an unknown file field, too many
 * parts or fields, a field too long, a body cut short).
 */
export class InvalidUploadException extends BadRequestException {
  readonly code: ErrorCode = 'invalid_upload';

  constructor(message: string) {
    super(message);
  }
}
