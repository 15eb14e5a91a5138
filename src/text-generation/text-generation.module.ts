import { Module } from '@nestjs/common';
import { TextApiClient } from './text-api.client';

/** The text and code models (TEXT_PROVIDER, CODE_PROVIDER), for tasks. */
@Module({
  providers: [TextApiClient],
  exports: [TextApiClient],
})
export class TextGenerationModule {}
