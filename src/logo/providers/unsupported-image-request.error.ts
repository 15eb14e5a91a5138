import { LogoGenerationError } from '../logo-generation.error';

/** A request the configured image model cannot serve (never sent). */
export class UnsupportedImageRequestError extends LogoGenerationError {}
