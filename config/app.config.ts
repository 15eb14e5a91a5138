import { registerAs } from '@nestjs/config';
import { loadConfiguration } from './environment';

/**
 * The typed configuration as a Nest provider. The factory runs when the app
 * is built (not when this file is imported), so a test can set the
 * environment right before `Test.createTestingModule(...).compile()`.
 */
export const appConfig = registerAs('app', () => loadConfiguration());
