/**
 * What the image model is asked for a hero's background: a picture in the
 * brand's colours with no words and no logo in it (models garble both;
 * the service places the real logo and headline on it afterwards). With a
 * source image (the chosen logo, sent to the edit endpoint) it is asked to
 * take the look of it, not to show it.
 */
export function heroPrompt(colours: string[], fromLogo: boolean): string {
  return [
    fromLogo
      ? 'Using the attached logo only as a style reference, paint a wide background illustration for a website hero banner that feels like the same brand.'
      : 'Paint a wide background illustration for a website hero banner.',
    `Use these colors: ${colours.join(', ')}.`,
    'Abstract shapes, soft gradients and gentle depth, filling the whole frame edge to edge, calm enough for a headline to be placed on top.',
    'Do not include any text, letters, numbers, words, logos, symbols of the brand or watermarks.',
  ].join('\n');
}
