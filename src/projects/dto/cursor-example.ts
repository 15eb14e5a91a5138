import { encodeCursor } from '../project-cursor';

/**
 * A cursor as the service issues it (the position after the example
 * project), so Swagger UI's "Try it out" sends one that is accepted.
 */
export const CURSOR_EXAMPLE = encodeCursor({
  key: '2026-11-22T03:39:09.321Z',
  id: '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20',
});
