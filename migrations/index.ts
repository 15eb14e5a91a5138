import { InitialSchema1763780000000 } from './1763780000000-initial-schema';
import { ChildOrderIndexes1763790000000 } from './1763790000000-child-order-indexes';

/**
 * Every migration, oldest first. Listed as classes rather than a file glob so
 * the same list works from TypeScript (tests) and from the build (dist/).
 */
export const MIGRATIONS = [
  InitialSchema1763780000000,
  ChildOrderIndexes1763790000000,
];
