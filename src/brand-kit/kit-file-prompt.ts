/**
 * The prompt a kit file is kept with: its name, then the logo it was made
 * from (the kit's reads find a logo's files by it).
 */
export const kitFilePrompt = (name: string, logoId: string): string =>
  `${name} from logo ${logoId}`;
