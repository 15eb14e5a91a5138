import { InitialSchema1763780000000 } from './1763780000000-initial-schema';

/**
 * Every migration, oldest first. Listed as classes rather than a file glob so
 * the same list works from TypeScript (tests) and from the build (dist/).
 */
export const MIGRATIONS = [InitialSchema1763780000000];
