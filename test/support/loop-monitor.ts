import { join } from 'node:path';
import type { LoopStats } from './event-loop-monitor';
import type { ServerProcess } from './server-process';

/**
 * Node.js arguments that preload event-loop-monitor.ts into a server started
 * with `ipc: true`. Node.js 24 strips the file's types itself, so no
 * compiler is loaded into the server (ts-node would add about 30 MB to a
 * heap the pod-sized tests keep at 128 MB). --expose-gc lets the monitor
 * collect garbage before it reports memory.
 */
export const LOOP_MONITOR_NODE_ARGS = [
  '--expose-gc',
  '-r',
  join(__dirname, 'event-loop-monitor.ts'),
];

/** Starts a new measuring window in the monitored server. */
export async function startLoopWindow(server: ServerProcess): Promise<void> {
  await server.ask({ type: 'reset' });
}

/** The monitored server's figures since its window started. */
export async function loopWindowStats(
  server: ServerProcess,
): Promise<LoopStats> {
  return (await server.ask({ type: 'stats' })) as LoopStats;
}
