import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The TypeScript files below `folder` that the service runs: its specs
 * left out (a spec may build its fixtures with anything).
 */
export function sourceFilesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() &&
        entry.name.endsWith('.ts') &&
        !entry.name.endsWith('.spec.ts'),
    )
    .map((entry) => join(entry.parentPath, entry.name));
}
