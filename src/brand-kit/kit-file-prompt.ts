/**
 * The prompt a kit file is kept with: its name, then the logo it was made
 * from (the kit's reads find a logo's files by it).
 */
export const kitFilePrompt = (name: string, logoId: string): string =>
  `${kitFilePromptStart(name)}${logoId}`;

/**
 * How every kit file of `name` starts its prompt, whichever logo it was
 * made from: a new kit's file replaces the project's files starting so.
 */
export const kitFilePromptStart = (name: string): string =>
  `${name} from logo `;
