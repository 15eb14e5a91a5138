/** SPEC §2 logo request vocabulary and limits (§8). */
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
