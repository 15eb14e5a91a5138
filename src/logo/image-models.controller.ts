import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Authenticated } from '../auth/authenticated.decorator';
import { FailureMessage } from '../failures/failure-message.decorator';
import { LOGO_GENERIC_FAILURE } from './logo.constants';
import { ImageModelsEndpoint } from './image-models.openapi';
import { ImageModelCatalog } from './providers/image-model-catalog';

@ApiTags('logo')
@Controller('api/ai/models')
@Authenticated()
@FailureMessage(LOGO_GENERIC_FAILURE, {
  envelope: 'success-flag',
  exposePublicErrors: true,
})
export class ImageModelsController {
  constructor(private readonly catalog: ImageModelCatalog) {}

  @Get()
  @ImageModelsEndpoint()
  list() {
    return this.catalog.describe();
  }
}
