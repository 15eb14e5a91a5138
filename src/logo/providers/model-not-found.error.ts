import { ImageApiCallError } from '../image-api-call.error';

/**
 * The provider says the model does not exist (404, `model_not_found`):
 * never retried with the same model; the next of IMAGE_FALLBACK_MODELS,
 * if any, is asked instead.
 */
export class ModelNotFoundError extends ImageApiCallError {
  constructor(message: string) {
    super(
      message,
      false,
      undefined,
      'error_response',
      undefined,
      'model_unavailable',
    );
  }
}
