import { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type {
  BurstJob,
  BurstResult,
  FromLoad,
  Job,
  TimedJob,
  TimedResult,
} from './load-protocol';
import { spawnPinned, stopProcess, tsNodeArgs } from './processes';
import { LOAD_CORE, REPO_ROOT } from './settings';

/**
 * The orchestrator's handle on the load generator process: sends a job,
 * calls `between` after the warm-up (to read the server's counters), and
 * resolves with the measured window's result.
 */
/** IPC speaks JSON, which turns NaN (no sample to take a latency from) into null. */
function withNaN<T extends TimedResult | BurstResult>(result: T): T {
  for (const key of ['p50Ms', 'p90Ms', 'p99Ms', 'maxMs', 'meanMs'] as const) {
    if (result[key] === null) result[key] = NaN;
  }
  return result;
}

/** Runs after the warm-up, right before the measured window starts. */
type Between = () => void | Promise<void>;

export class LoadGenerator {
  private waiting?: (message: FromLoad) => void;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: FromLoad) => this.waiting?.(message));
  }

  /** For its CPU time. */
  get pid(): number {
    return this.child.pid ?? -1;
  }

  static async start(): Promise<LoadGenerator> {
    const child = spawnPinned(
      LOAD_CORE,
      process.execPath,
      tsNodeArgs(join(__dirname, 'load.ts')),
      { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
    );
    const load = new LoadGenerator(child);
    await load.next('ready');
    return load;
  }

  private next<T extends FromLoad['type']>(
    type: T,
  ): Promise<Extract<FromLoad, { type: T }>> {
    return new Promise((resolvePromise, reject) => {
      const onExit = () => reject(new Error('the load generator exited'));
      this.child.once('exit', onExit);
      this.waiting = (message) => {
        this.child.off('exit', onExit);
        this.waiting = undefined;
        if (message.type === 'error') {
          reject(new Error(`load generator: ${message.message}`));
        } else if (message.type !== type) {
          reject(
            new Error(
              `expected ${type} from the load generator, got ${message.type}`,
            ),
          );
        } else {
          resolvePromise(message as Extract<FromLoad, { type: T }>);
        }
      };
    });
  }

  run(job: TimedJob, between: Between): Promise<TimedResult>;
  run(job: BurstJob, between: Between): Promise<BurstResult>;
  async run(job: Job, between: Between): Promise<TimedResult | BurstResult> {
    const warmed = this.next('warmed');
    this.child.send({ type: 'job', job });
    await warmed;
    await between();
    const result = this.next('result');
    this.child.send({ type: 'go' });
    return withNaN((await result).result);
  }

  stop(): Promise<void> {
    return stopProcess(this.child);
  }
}
