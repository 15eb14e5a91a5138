/** The logo request's vocabulary and limits. */
/** What a logo is drawn as: `svg` only by a model that draws SVG. */
export const LOGO_FORMATS = ['png', 'svg'] as const;
export type LogoFormat = (typeof LOGO_FORMATS)[number];

export const LOGO_STYLES = [
  'modern',
  'minimalist',
  'vintage',
  'playful',
  'professional',
  'abstract',
  'geometric',
  'organic',
] as const;
export type LogoStyle = (typeof LOGO_STYLES)[number];

export const LOGO_MAX_COLORS = 5;
export const COMPANY_NAME_MAX = 100;
export const LOGO_DESCRIPTION_MAX = 500;

export const LOGO_SUCCESS_MESSAGE = 'Logo generated successfully!';
export const LOGO_GENERIC_FAILURE = 'Failed to generate logo';
export const KEY_MISSING_MESSAGE =
  "IMAGE_API_KEY is not configured. Add IMAGE_API_KEY to the server's environment variables.";
export const INVALID_RESPONSE_MESSAGE =
  'Invalid response from image service: no image URL';
export const NO_IMAGE_DATA_MESSAGE =
  'Invalid response from image service: no image data';
export const NOT_AN_IMAGE_MESSAGE =
  'Invalid response from image service: not a PNG, JPEG or WebP image';
export const TOO_MANY_PIXELS_MESSAGE =
  'Invalid response from image service: image larger than IMAGE_MAX_PIXELS';
export const UNREADABLE_IMAGE_MESSAGE =
  'Invalid response from image service: image size unreadable';
export const UNSAFE_IMAGE_URL_MESSAGE =
  'Invalid response from image service: image URL not https to a public host';
export const IMAGE_TOO_LARGE_MESSAGE =
  'Invalid response from image service: image larger than IMAGE_MAX_BYTES';
export const OVERSIZED_RESPONSE_MESSAGE =
  'Invalid response from image service: response too large';
/**
 * The most of an upstream answer that is read. A real answer (a URL and a
 * revised prompt) is a few kilobytes; without a cap a broken or hostile
 * upstream could make every logo request buffer megabytes.
 */
export const MAX_UPSTREAM_RESPONSE_BYTES = 1024 * 1024;
export const TIMEOUT_MESSAGE = 'The image service did not respond in time';
export const UNREACHABLE_MESSAGE = 'The image service could not be reached';

/** The answer of a hosted logo URL that has expired or never existed. */
export const LOGO_NOT_FOUND_MESSAGE = 'Logo not found';

/** A hosted logo that could not be read. */
export const HOSTED_LOGO_FAILURE = 'Failed to read logo';

/** Statuses added for production (docs/api.md, "Logo generation in production"). */
export const LOGO_BUSY_MESSAGE = 'Logo generator is busy, retry later';
export const LOGO_RATE_LIMITED_MESSAGE = 'Too many logo requests, retry later';
