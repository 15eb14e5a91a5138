import {
  ChildProcess,
  spawn,
  spawnSync,
  type StdioOptions,
} from 'node:child_process';
import { once } from 'node:events';
import { REPO_ROOT } from './settings';

/**
 * Starting pinned child processes, and making sure every one of them is
 * gone when the run ends, however it ends.
 */

let tasksetChecked: boolean | undefined;

/** taskset (util-linux) may be missing, e.g. on macOS: run unpinned then. */
export function hasTaskset(): boolean {
  if (tasksetChecked === undefined) {
    const probe = spawnSync('taskset', ['-V'], { stdio: 'ignore' });
    tasksetChecked = probe.status === 0;
    if (!tasksetChecked) {
      console.warn(
        'taskset not found: processes run unpinned, numbers will be noisier.',
      );
    }
  }
  return tasksetChecked;
}

/** Pins this process (all its threads) to one core. */
export function pinSelf(core: number): void {
  if (!hasTaskset()) return;
  spawnSync('taskset', ['-a', '-cp', String(core), String(process.pid)], {
    stdio: 'ignore',
  });
}

const running = new Set<ChildProcess>();

export interface PinnedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdio?: StdioOptions;
}

/**
 * Spawns `command args` on one core. taskset execs the command in place, so
 * the child's pid is the pid of the command itself (what /proc is read for).
 */
export function spawnPinned(
  /** undefined: unpinned, the kernel places it (the replicas). */
  core: number | undefined,
  command: string,
  args: string[],
  options: PinnedOptions = {},
): ChildProcess {
  const [file, argv] =
    core !== undefined && hasTaskset()
      ? ['taskset', ['-c', String(core), command, ...args]]
      : [command, args];
  const child = spawn(file, argv, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: options.stdio ?? ['ignore', 'inherit', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => running.delete(child));
  return child;
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
export async function stopProcess(
  child: ChildProcess,
  graceMs = 5_000,
): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** Every child still running (used by the cleanup on failure or Ctrl-C). */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((child) => stopProcess(child, 2_000)));
}

/** Last resort when the orchestrator is exiting right now: no awaiting. */
export function killAllProcessesNow(): void {
  for (const child of running) child.kill('SIGKILL');
}

export const sleep = (ms: number) =>
  new Promise<void>((resolvePromise) => setTimeout(resolvePromise, ms));

/** node with ts-node's transpiler, for the bench's own child scripts. */
export function tsNodeArgs(script: string, args: string[] = []): string[] {
  return [
    '-r',
    require.resolve('ts-node/register/transpile-only'),
    script,
    ...args,
  ];
}

/**
 * Starts one of the bench's helper servers (a script that prints
 * `{"port":N}` once it listens) on `core`, and resolves with its port.
 */
export async function startHelperServer(
  core: number,
  script: string,
  args: string[],
  /** Flags for its `node`, e.g. the pod's heap flags. */
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const argv = [...nodeArgs, ...tsNodeArgs(script, args)];
  const child = spawnPinned(core, process.execPath, argv, {
    // ts-node finds the repository's tsconfig.json from here.
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolvePromise, reject) => {
    let buffered = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n')) {
        resolvePromise((JSON.parse(line) as { port: number }).port);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with code ${code} before listening`)),
    );
  });
  return { child, port };
}

/** Runs a bench script to completion on `core`; resolves with its stdout. */
export function runScript(
  core: number,
  script: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<string> {
  const child = spawnPinned(core, process.execPath, tsNodeArgs(script, args), {
    env,
    // ts-node finds the repository's tsconfig.json from here.
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (output += chunk));
  return new Promise((resolvePromise, reject) => {
    child.once('close', (code) =>
      code === 0
        ? resolvePromise(output)
        : reject(new Error(`${script} exited with code ${code}`)),
    );
  });
}
