import type { LogoRequest } from './dto/generate-logo.dto';

/**
 * The text prompt sent to the image model. Optional parts appear only when given
 * (and not blank), so the prompt never says "undefined" or ends a sentence
 * with nothing.
 */
export function buildLogoPrompt(request: LogoRequest): string {
  const given = (text: string | undefined) =>
    text !== undefined && text.trim() !== '';
  const sentences = [
    `Create a ${request.style} logo for a company named "${request.companyName}".`,
    `Use these colors: ${request.colors.join(', ')}.`,
  ];
  if (given(request.industry)) {
    sentences.push(`The company works in the ${request.industry} industry.`);
  }
  if (request.mood && request.mood.length > 0) {
    sentences.push(`The mood should be ${request.mood.join(', ')}.`);
  }
  if (given(request.description)) {
    sentences.push(`About the company: ${request.description}`);
  }
  sentences.push(
    'The logo should be clean, scalable and memorable, on a transparent or white background, centered.',
  );
  return sentences.join(' ');
}
