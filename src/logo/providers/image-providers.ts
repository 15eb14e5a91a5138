/**
 * The request and answer shapes the service speaks (IMAGE_PROVIDER):
 * `openai-compatible` keeps the request the service always sent, for any
 * OpenAI-compatible endpoint; `openai` follows OpenAI's current images API
 * and its model capabilities; `together` is Together AI's images API;
 * `recraft` is Recraft's, whose vector models draw SVG.
 */
export const IMAGE_PROVIDERS = [
  'openai-compatible',
  'openai',
  'together',
  'recraft',
] as const;
export type ImageProvider = (typeof IMAGE_PROVIDERS)[number];
