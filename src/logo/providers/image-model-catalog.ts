import { Inject, Injectable } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { ImageModelsDto } from '../dto/image-models.dto';
import { logoConfig, type ImageApiConfig } from '../logo.config';
import { ImageModelLifecycle } from './image-model-lifecycle';
import { capabilitiesOf } from './model-capabilities';

/** GET /api/ai/models: IMAGE_MODEL and IMAGE_FALLBACK_MODELS, in order. */
@Injectable()
export class ImageModelCatalog {
  private readonly settings: ImageApiConfig;

  constructor(
    private readonly lifecycle: ImageModelLifecycle,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.settings = config.imageApi;
  }

  describe(): ImageModelsDto {
    const { provider, model } = this.settings;
    return {
      provider,
      defaultModel: model,
      models: this.lifecycle.models.map((id) => {
        const capabilities = capabilitiesOf(id, provider);
        const state = this.lifecycle.stateOf(id);
        return {
          id,
          sizes: [...capabilities.sizes],
          maxCount: capabilities.maxCount,
          formats: [...capabilities.formats],
          transparentBackground: capabilities.transparentBackground,
          edits: capabilities.edits,
          shutdownDate: state.shutdownDate,
          status: state.status,
        };
      }),
    };
  }
}
