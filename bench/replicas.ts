import type { LoadGenerator } from './load-client';
import type { TimedJob } from './load-protocol';
import { cpuSpent, cpuTimesByName, cpuTimeUs, waitForIdle } from './proc-stats';
import type { Service } from './service';

/**
 * Replicas on PostgreSQL: the mixed workload (80% GET by id, 15% list by
 * userId, 5% create) against one service process, then split evenly over
 * two (one port each), with the CPU time of every party over the window:
 * each service process, PostgreSQL (all its processes) and the load
 * generator. The service processes are not pinned here, so the kernel can
 * spread them over both cores, as it would spread replicas over a node.
 */

export interface ReplicaSample {
  processes: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  seconds: number;
  requests: number;
  /** CPU µs over the window, per service process. */
  serviceCpuUs: number[];
  postgresCpuUs: number;
  loadCpuUs: number;
}

export async function measureReplicas(
  load: LoadGenerator,
  servers: Service[],
  job: Omit<TimedJob, 'baseUrl' | 'moreBaseUrls'>,
): Promise<ReplicaSample> {
  const pids = servers.map((server) => server.pid);
  let serviceBefore: number[] = [];
  let postgresBefore = new Map<number, number>();
  let loadBefore = 0;
  const result = await load.run(
    {
      ...job,
      baseUrl: servers[0].baseUrl,
      moreBaseUrls: servers.slice(1).map((server) => server.baseUrl),
    },
    async () => {
      for (const pid of pids) await waitForIdle(pid);
      serviceBefore = pids.map(cpuTimeUs);
      postgresBefore = cpuTimesByName('postgres');
      loadBefore = cpuTimeUs(load.pid);
    },
  );
  const sample: ReplicaSample = {
    processes: servers.length,
    perSecond: result.perSecond,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    errors: result.non2xx + result.socketErrors,
    seconds: result.seconds,
    requests: result.completed,
    serviceCpuUs: pids.map((pid, i) => cpuTimeUs(pid) - serviceBefore[i]),
    postgresCpuUs: cpuSpent(postgresBefore, cpuTimesByName('postgres')),
    loadCpuUs: cpuTimeUs(load.pid) - loadBefore,
  };
  for (const pid of pids) await waitForIdle(pid);
  return sample;
}
