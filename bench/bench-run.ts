import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend } from './databases';
import { killAllProcessesNow, stopAllProcesses } from './processes';

/**
 * What one bench run owns: a temp folder and the databases it made. Both
 * are removed at the end, also on failure or Ctrl-C, with every process
 * the run started; `interrupted` tells the run's error handler that a
 * signal, not a failure, ended it.
 */
export interface BenchRun {
  readonly workDir: string;
  readonly backends: Backend[];
  readonly interrupted: boolean;
  cleanup(): Promise<void>;
}

export function startBenchRun(tempPrefix: string): BenchRun {
  const workDir = mkdtempSync(join(tmpdir(), tempPrefix));
  const backends: Backend[] = [];
  let cleaning: Promise<void> | undefined;
  let interrupted = false;
  const cleanup = (): Promise<void> => {
    cleaning ??= (async () => {
      await stopAllProcesses();
      for (const backend of backends) {
        await backend
          .dispose()
          .catch((error: unknown) =>
            console.error(`could not drop ${backend.kind} databases:`, error),
          );
      }
      rmSync(workDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.error(`\n${signal}: stopping every process the bench started…`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  // Last resort if the process dies without the cleanup having finished.
  process.on('exit', killAllProcessesNow);
  return {
    workDir,
    backends,
    get interrupted() {
      return interrupted;
    },
    cleanup,
  };
}

/**
 * Which code a checkout holds: its commit, and whether src/, config/ or
 * migrations/ have uncommitted changes (a build compiles the working tree).
 */
export function codeVersionOf(dir: string): {
  commit: string;
  uncommittedChanges: boolean;
} {
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  try {
    return {
      commit: git(['rev-parse', 'HEAD']),
      uncommittedChanges:
        git(['status', '--porcelain', '--', 'src', 'config', 'migrations']) !==
        '',
    };
  } catch {
    return { commit: 'unknown', uncommittedChanges: true };
  }
}
