import type { ChatMessage } from '../text-generation/text-api.client';
import { TextApiCallError } from '../text-generation/text-api-call.error';
import type { IconColors } from './icon-colors';
import type { IconStyle } from './dto/icon-set-input.dto';

/** The code model's icon is a few hundred tokens; this leaves room. */
export const ICON_ANSWER_MAX_TOKENS = 4000;

const STYLE_WORDS: Record<IconStyle, string> = {
  outline: 'outlined with 2-pixel round strokes and no fill',
  solid: 'solid, filled shapes',
  duotone: 'outlined with 2-pixel round strokes over a light fill',
};

/**
 * What the code model is asked for an icon Lucide lacks: one SVG on the
 * 24×24 grid, strokes only, nothing that loads or runs. Whatever it
 * answers is still rebuilt from the allow-list and restyled; the rules
 * here only make a usable answer likelier.
 */
export function iconMessages(
  name: string,
  style: IconStyle,
  colors: IconColors,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You draw one user-interface icon as SVG. Answer with the SVG document only: <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"> with path, circle, rect, line, polyline or polygon elements, in the style of the Lucide icon set. No text, no script, no style element, no images, no links, no external references.',
    },
    {
      role: 'user',
      content: [
        `Icon: ${name}`,
        `Style: ${STYLE_WORDS[style]}`,
        `Colour: ${colors.primary}`,
      ].join('\n'),
    },
  ];
}

/** What an image model that draws SVG (Recraft's vector models) is asked. */
export function iconImagePrompt(
  name: string,
  style: IconStyle,
  colors: IconColors,
): string {
  return `A simple user-interface icon of "${name.replace(/-/g, ' ')}", ${STYLE_WORDS[style]}, in ${colors.primary} on a transparent background, centered on a square grid, no text.`;
}

/**
 * The SVG document in the code model's answer: the answer itself, or the
 * first ```svg (or ```xml) fence in it (models often say a sentence
 * first); anything that is not one `<svg>…</svg>` is invalid_answer.
 */
export function svgOfAnswer(content: string): string {
  let text = content.trim();
  const fenced = /```(?:svg|xml)?[ \t]*\n([\s\S]*?)\n?```/i.exec(text);
  if (fenced) text = fenced[1].trim();
  text = text.replace(/^<\?xml[^>]*\?>\s*/, '');
  if (!/^<svg\b/i.test(text) || !/<\/svg>$/i.test(text)) {
    throw new TextApiCallError(
      'invalid_answer',
      "The code model's answer is not an SVG document",
      false,
    );
  }
  return text;
}

/** An answered SVG that could not be made safe or drew nothing once it was. */
export function unsafeIconError(name: string, why: string): TextApiCallError {
  return new TextApiCallError(
    'invalid_answer',
    `The icon "${name}" the model drew cannot be kept: ${why}`,
    false,
  );
}
