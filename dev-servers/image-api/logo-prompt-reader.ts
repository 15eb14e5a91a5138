import { LOGO_STYLES, type LogoStyle } from '../../src/logo/logo.constants';

/** What the dev image API draws: read back from the service's prompt. */
export interface LogoSketch {
  companyName: string;
  style: LogoStyle;
  colors: string[];
}

/** The sentences that may follow the colors in buildLogoPrompt's text. */
const AFTER_COLORS =
  /\.(?= The company works in | The mood should be | About the company: | The logo should be clean)/;

/**
 * Reads company, style and colors back from a prompt made by
 * buildLogoPrompt (src/logo/logo-prompt.ts; a unit test keeps the two in
 * step). Any other prompt still gets a logo: initials from its first words,
 * the modern style, no colors (the drawing picks its own).
 */
export function readLogoPrompt(prompt: string): LogoSketch {
  const head =
    /^Create an? (\S+) logo for a company named "(.*?)"\. Use these colors: /s.exec(
      prompt,
    );
  if (!head) {
    return {
      companyName: prompt.split(/\s+/).slice(0, 3).join(' '),
      style: 'modern',
      colors: [],
    };
  }
  const style = (LOGO_STYLES as readonly string[]).includes(head[1])
    ? (head[1] as LogoStyle)
    : 'modern';
  const rest = prompt.slice(head[0].length);
  const end = AFTER_COLORS.exec(rest)?.index ?? rest.lastIndexOf('.');
  const list = end >= 0 ? rest.slice(0, end) : rest;
  return {
    companyName: head[2],
    style,
    // Joined with ", " by the service; a comma inside rgb(…) is not a break.
    colors: list.split(/, (?![^(]*\))/).filter((color) => color !== ''),
  };
}
