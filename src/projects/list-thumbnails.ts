/**
 * The rendition a list item's `logoThumbnailUrl` names: 128 pixels a side,
 * a step of the ladder (assets/renditions/rendition-ladder.ts), so every
 * list page asks for the one rendition each logo already has once it was
 * shown; sharp on a 64-pixel avatar at twice the density.
 */
export const LIST_THUMBNAIL_SIZE = 128;

/** The thumbnail's URL: the asset's content URL (signed or not) with `size`. */
export const thumbnailUrl = (contentUrl: string): string =>
  `${contentUrl}${contentUrl.includes('?') ? '&' : '?'}size=${LIST_THUMBNAIL_SIZE}`;

/**
 * `{…}` with one more member at its end. The item is JSON text the
 * database rendered (an object, compact): it is extended as text rather
 * than parsed and written again.
 */
export function withMember(
  objectJson: string,
  name: string,
  value: unknown,
): string {
  const close = objectJson.lastIndexOf('}');
  const empty = objectJson.slice(0, close).trim() === '{';
  return `${objectJson.slice(0, close)}${empty ? '' : ','}${JSON.stringify(name)}:${JSON.stringify(value)}}`;
}
