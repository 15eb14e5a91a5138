import type { ImageRequest } from './image-request';
import type { ModelCapabilities } from './model-capabilities';
import { UnsupportedImageRequestError } from './unsupported-image-request.error';

/**
 * The parts of a request a model's capabilities decide: the count is
 * clamped to what it draws at once, a size it does not offer becomes its
 * first one, a format it cannot answer is refused (a PNG is no SVG), and a
 * transparent background it refuses becomes an opaque one (the prompt asks
 * for a transparent or white background, so white it is).
 */
export function fitToModel(
  request: ImageRequest,
  capabilities: ModelCapabilities,
): {
  count: number;
  size: string;
  width: number;
  height: number;
  background: ImageRequest['background'];
} {
  if (!capabilities.formats.includes(request.format)) {
    throw new UnsupportedImageRequestError(
      `The image model ${capabilities.id} cannot answer ${request.format} images`,
    );
  }
  if (!Number.isInteger(request.count) || request.count < 1) {
    throw new UnsupportedImageRequestError('The image count must be 1 or more');
  }
  const asked = `${request.size.width}x${request.size.height}`;
  const size = capabilities.sizes.includes(asked)
    ? asked
    : capabilities.sizes[0];
  const [width, height] = size.split('x').map(Number);
  return {
    count: Math.min(request.count, capabilities.maxCount),
    size,
    width: width || request.size.width,
    height: height || request.size.height,
    background:
      request.background === 'transparent' &&
      !capabilities.transparentBackground
        ? 'opaque'
        : request.background,
  };
}
