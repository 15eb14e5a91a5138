import type { ImageProvider } from './image-providers';

/**
 * The provider's model list, next to its generation endpoint:
 * https://api.openai.com/v1/images/generations → https://api.openai.com/v1/models.
 * Only OpenAI's list is read (it carries `shutdown_date`); undefined for
 * other profiles and for an endpoint not ending in /images/generations.
 */
export function modelsUrlOf(
  provider: ImageProvider,
  generationsUrl: string,
): string | undefined {
  if (provider !== 'openai') return undefined;
  const url = new URL(generationsUrl);
  const suffix = '/images/generations';
  const path = url.pathname.replace(/\/$/, '');
  if (!path.endsWith(suffix)) return undefined;
  return `${url.origin}${path.slice(0, -suffix.length)}/models`;
}
