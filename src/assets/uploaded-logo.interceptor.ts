import {
  BadRequestException,
  Inject,
  Injectable,
  PayloadTooLargeException,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { catchError, type Observable } from 'rxjs';
import { setBodyDigest } from '../common/http/request-context';
import { assetsConfig, type AssetsConfig } from './assets.config';
import { FileTooLargeException, InvalidUploadException } from './assets.errors';
import { UploadedLogo } from './uploaded-logo';

/** The one file part of an upload. */
export const UPLOAD_FILE_FIELD = 'file';
/** The optional text field that names the file (else the part's own name). */
export const UPLOAD_NAME_FIELD = 'fileName';

/**
 * multer's limits for an upload: one file of at most
 * ASSET_UPLOAD_MAX_BYTES, a few short fields, nothing else; the body is
 * bounded by them as a JSON body is by BODY_LIMIT.
 */
export const uploadLimits = (config: AssetsConfig) => ({
  fileSize: config.upload.maxBytes,
  files: 1,
  fields: 4,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 5,
  headerPairs: 20,
});

/** The file multer kept in memory (its memory storage). */
interface MulterFile {
  fieldname: string;
  originalname: string;
  buffer: Buffer;
}

/**
 * Outermost on the upload route: multer's refusals answered as this
 * API's errors, 413 `file_too_large` and 400 `invalid_upload` (too many
 * parts, a second file, a malformed body), with the API's error bodies.
 */
@Injectable()
export class UploadFailuresInterceptor implements NestInterceptor {
  private readonly maxBytes: number;

  constructor(@Inject(assetsConfig.KEY) config: AssetsConfig) {
    this.maxBytes = config.upload.maxBytes;
  }

  intercept(
    _context: ExecutionContext,
    next: CallHandler,
  ): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (
          error instanceof PayloadTooLargeException &&
          !(error instanceof FileTooLargeException)
        ) {
          throw new FileTooLargeException(this.maxBytes);
        }
        if (
          error instanceof BadRequestException &&
          Object.getPrototypeOf(error) === BadRequestException.prototype
        ) {
          // multer's own (plain BadRequestException): its text names the limit.
          throw new InvalidUploadException(`Invalid upload: ${error.message}`);
        }
        throw error;
      }),
    );
  }
}

/**
 * Innermost, after multer read the form: the body becomes an UploadedLogo
 * (the service judges its bytes), and the Idempotency-Key's fingerprint
 * the digest of the file and its fields, so a retry must send the same
 * image. A JSON body passes untouched.
 */
@Injectable()
export class UploadedLogoInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context
      .switchToHttp()
      .getRequest<Request & { file?: MulterFile }>();
    if (!request.is('multipart/form-data')) return next.handle();
    const file = request.file;
    if (!file) {
      throw new InvalidUploadException(
        `Invalid upload: one file part named "${UPLOAD_FILE_FIELD}" is required`,
      );
    }
    const fields = (request.body ?? {}) as Record<string, unknown>;
    const named = fields[UPLOAD_NAME_FIELD];
    if (named !== undefined && typeof named !== 'string') {
      throw new InvalidUploadException(
        `Invalid upload: "${UPLOAD_NAME_FIELD}" must be sent once, as text`,
      );
    }
    const sentName = named ?? file.originalname;
    setBodyDigest(
      request,
      createHash('sha256')
        .update(`upload\n${sentName}\n`)
        .update(file.buffer)
        .digest('hex'),
    );
    request.body = new UploadedLogo(file.buffer, sentName || undefined);
    return next.handle();
  }
}
