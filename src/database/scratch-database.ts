import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const scratchFolders = new Set<string>();

/**
 * The file behind DATABASE_URL=file::memory:, a private database that starts
 * empty and is removed when the app closes. It is a file in a temporary
 * folder rather than SQLite's :memory: because a streamed list reads its
 * snapshot on a second connection, and a :memory: database has only one.
 */
export function createScratchDatabaseFile(): string {
  const folder = mkdtempSync(join(tmpdir(), 'workspace-scratch-'));
  scratchFolders.add(folder);
  return join(folder, 'workspace.db');
}

/** Removes the folder of a file made by createScratchDatabaseFile, if it is one. */
export function removeScratchDatabase(file: string): void {
  const folder = dirname(file);
  if (scratchFolders.delete(folder)) {
    rmSync(folder, { recursive: true, force: true });
  }
}
