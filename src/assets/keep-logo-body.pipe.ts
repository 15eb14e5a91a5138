import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppValidationPipe } from '../common/validation/app-validation.pipe';
import { KeepLogoDto } from './dto/keep-logo.dto';
import { KeepPreviewedLogoDto } from './dto/keep-previewed-logo.dto';
import { UploadedLogo } from './uploaded-logo';

/**
 * What POST /api/projects/{id}/logos is asked: generate, keep a preview,
 * or (multipart/form-data) keep the team's own image.
 */
export type KeepLogoBody = KeepLogoDto | KeepPreviewedLogoDto | UploadedLogo;

const validation = new AppValidationPipe();

/**
 * The body of POST /api/projects/{id}/logos, validated as the DTO it names:
 * a body with `logoUrl` keeps a previewed logo (its other fields are
 * stripped); an uploaded image passes as it is; any other body is the
 * logo request.
 */
@Injectable()
export class KeepLogoBodyPipe implements PipeTransform {
  transform(value: unknown): Promise<KeepLogoBody> {
    // Read and bounded by UploadedLogoInterceptor; judged by the service.
    if (value instanceof UploadedLogo) return Promise.resolve(value);
    const previewed =
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      'logoUrl' in value;
    return validation.transform(value, {
      type: 'body',
      metatype: previewed ? KeepPreviewedLogoDto : KeepLogoDto,
    }) as Promise<KeepLogoBody>;
  }
}
