import {
  BadRequestException,
  PayloadTooLargeException,
  type CallHandler,
  type ExecutionContext,
} from '@nestjs/common';
import { firstValueFrom, of, throwError } from 'rxjs';
import { getBodyDigest } from '../common/http/request-context';
import type { AssetsConfig } from './assets.config';
import { FileTooLargeException, InvalidUploadException } from './assets.errors';
import { UploadedLogo } from './uploaded-logo';
import {
  UploadFailuresInterceptor,
  UploadedLogoInterceptor,
} from './uploaded-logo.interceptor';

const contextOf = (request: object) =>
  ({
    switchToHttp: () => ({ getRequest: () => request }),
  }) as unknown as ExecutionContext;

const multipartRequest = (fields: object, file?: object) => ({
  is: (type: string) => type === 'multipart/form-data',
  body: fields,
  file,
});

const handled: CallHandler = { handle: () => of('answered') };

describe('upload interceptors', () => {
  const failures = new UploadFailuresInterceptor({
    upload: { maxBytes: 10, maxPixels: 10 },
  } as AssetsConfig);
  const refusal = (error: Error) =>
    firstValueFrom(
      failures.intercept(contextOf({}), {
        handle: () => throwError(() => error),
      }),
    );

  it("answers multer's refusals with the API's codes: 413 file_too_large, 400 invalid_upload", async () => {
    await expect(
      refusal(new PayloadTooLargeException('File too large')),
    ).rejects.toBeInstanceOf(FileTooLargeException);
    await expect(
      refusal(new BadRequestException('Unexpected file field')),
    ).rejects.toThrow(
      new InvalidUploadException('Invalid upload: Unexpected file field'),
    );
    // The API's own refusals pass as they are.
    const own = new InvalidUploadException('x');
    await expect(refusal(own)).rejects.toBe(own);
  });

  it('makes the form an UploadedLogo, named by its fileName field, with a fingerprint of name and bytes', async () => {
    const interceptor = new UploadedLogoInterceptor();
    const file = { originalname: 'sent.png', buffer: Buffer.from('png') };
    const named = multipartRequest({ fileName: 'mine.png' }, file);
    await firstValueFrom(interceptor.intercept(contextOf(named), handled));
    expect(named.body).toEqual(new UploadedLogo(file.buffer, 'mine.png'));
    const unnamed = multipartRequest({}, file);
    await firstValueFrom(interceptor.intercept(contextOf(unnamed), handled));
    expect((unnamed.body as UploadedLogo).sentName).toBe('sent.png');
    const digest = getBodyDigest(named as never);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(getBodyDigest(unnamed as never)).not.toBe(digest);
  });

  it('a form without its file part, or with fileName sent twice, is 400 invalid_upload; JSON passes untouched', () => {
    const interceptor = new UploadedLogoInterceptor();
    expect(() =>
      interceptor.intercept(contextOf(multipartRequest({})), handled),
    ).toThrow(InvalidUploadException);
    expect(() =>
      interceptor.intercept(
        contextOf(
          multipartRequest(
            { fileName: ['a', 'b'] },
            { originalname: 'a', buffer: Buffer.from('x') },
          ),
        ),
        handled,
      ),
    ).toThrow(InvalidUploadException);
    const json = { is: () => false, body: { companyName: 'Acme' } };
    interceptor.intercept(contextOf(json), handled);
    expect(json.body).toEqual({ companyName: 'Acme' });
  });
});
