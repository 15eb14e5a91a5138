import { ApiProperty } from '@nestjs/swagger';
import { IMAGE_PROVIDERS } from '../providers/image-providers';

/** One configured image model: what it accepts and where it stands. */
export class ImageModelDto {
  @ApiProperty({ example: 'gpt-image-2.5-sunburst' })
  id: string;

  @ApiProperty({ isArray: true, type: String, example: ['1024x1024'] })
  sizes: string[];

  @ApiProperty({ type: 'integer', example: 10 })
  maxCount: number;

  @ApiProperty({
    enum: ['png', 'webp', 'jpeg', 'svg'],
    enumName: 'ImageFormat',
    isArray: true,
    example: ['png', 'webp', 'jpeg'],
  })
  formats: string[];

  @ApiProperty({ example: true })
  transparentBackground: boolean;

  @ApiProperty({ example: true })
  edits: boolean;

  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: "The provider's announced shutdown, or null",
    example: null,
  })
  shutdownDate: string | null;

  @ApiProperty({
    enum: ['available', 'shutdown_scheduled', 'gone', 'unknown'],
    enumName: 'ImageModelStatus',
    description:
      "From the provider's model list when it was read, else from the announced shutdown date",
    example: 'available',
  })
  status: string;
}

/** GET /api/ai/models: the configured model and its fallbacks. */
export class ImageModelsDto {
  @ApiProperty({
    enum: IMAGE_PROVIDERS,
    enumName: 'ImageProvider',
    example: 'openai',
  })
  provider: string;

  @ApiProperty({ example: 'gpt-image-2.5-sunburst' })
  defaultModel: string;

  @ApiProperty({ type: [ImageModelDto] })
  models: ImageModelDto[];
}
