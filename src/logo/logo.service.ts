import { Injectable } from '@nestjs/common';
import type { GenerateLogoDto } from './dto/generate-logo.dto';
import { ImageApiClient } from './image-api.client';
import {
  KEY_MISSING_MESSAGE,
  LOGO_MAX_COLORS,
  LOGO_STYLES,
} from './logo.constants';
import { LogoGenerationError } from './logo-generation.error';
import { buildLogoPrompt } from './logo-prompt';

@Injectable()
export class LogoService {
  constructor(private readonly imageApi: ImageApiClient) {}

  /** SPEC 4.6: returns the temporary URL of one generated logo. */
  async generate(request: GenerateLogoDto): Promise<string> {
    // Validation has already passed: a bad body is 400 even without a key.
    if (!this.imageApi.isConfigured) {
      throw new LogoGenerationError(KEY_MISSING_MESSAGE);
    }
    return this.imageApi.generateImageUrl(buildLogoPrompt(request));
  }

  /** SPEC 4.7 */
  describe() {
    const configured = this.imageApi.isConfigured;
    return {
      service: 'Image-model logo generator',
      status: configured ? 'configured' : 'not_configured',
      message: configured
        ? 'Logo generator is ready'
        : "IMAGE_API_KEY was not found. Add IMAGE_API_KEY to the server's environment variables to enable logo generation.",
      supportedStyles: [...LOGO_STYLES],
      maxColors: LOGO_MAX_COLORS,
    };
  }
}
