/**
 * The prompt of an edit of a kept logo: the user's instructions, and that
 * everything they do not change stays — an edit is a variation of this
 * logo, not a new one.
 */
export function buildLogoEditPrompt(instructions: string): string {
  return [
    'Edit this logo as follows:',
    instructions.trim(),
    "Keep the logo's identity: its mark, its lettering, its layout and its colors stay as they are unless the instructions above change them.",
    'Keep a transparent or plain white background, no mockup, no extra text.',
  ].join('\n');
}
