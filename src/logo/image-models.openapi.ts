import { applyDecorators } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';
import { ApiAuth } from '../failures/failure-responses.openapi';
import { ImageModelsDto } from './dto/image-models.dto';

export const ImageModelsEndpoint = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Image models',
      description:
        'The configured image model and its fallbacks (IMAGE_FALLBACK_MODELS), what each accepts, and its lifecycle as the provider announces it',
      operationId: 'listImageModels',
    }),
    ApiResponse({
      status: 200,
      description: 'The configured models, in the order they are tried',
      type: ImageModelsDto,
      example: {
        provider: 'openai',
        defaultModel: 'gpt-image-2.5-sunburst',
        models: [
          {
            id: 'gpt-image-2.5-sunburst',
            sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
            maxCount: 10,
            formats: ['png', 'webp', 'jpeg'],
            transparentBackground: true,
            edits: true,
            shutdownDate: null,
            status: 'available',
          },
          {
            id: 'gpt-image-1.5',
            sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'],
            maxCount: 10,
            formats: ['png', 'webp', 'jpeg'],
            transparentBackground: true,
            edits: true,
            shutdownDate: '2026-12-01',
            status: 'shutdown_scheduled',
          },
        ],
      },
    }),
    ApiAuth('success-flag', 'required'),
  );
