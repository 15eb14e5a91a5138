import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppValidationPipe } from '../common/validation/app-validation.pipe';
import { KeepLogoDto } from './dto/keep-logo.dto';
import { KeepPreviewedLogoDto } from './dto/keep-previewed-logo.dto';

/** What POST /api/projects/{id}/logos is asked: generate, or keep a preview. */
export type KeepLogoBody = KeepLogoDto | KeepPreviewedLogoDto;

const validation = new AppValidationPipe();

/**
 * The body of POST /api/projects/{id}/logos, validated as the DTO it names:
 * a body with `logoUrl` keeps a previewed logo (its other fields are
 * stripped); any other body is the logo request.
 */
@Injectable()
export class KeepLogoBodyPipe implements PipeTransform {
  transform(value: unknown): Promise<KeepLogoBody> {
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
