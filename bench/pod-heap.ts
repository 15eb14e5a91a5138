import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * The heap of the Deployment's pod, read from the Deployment itself
 * (deploy/kubernetes/deployment.yaml, NODE_OPTIONS of its container), so
 * that the bench and the heap-sensitive tests run the process the pod runs
 * and cannot drift from it; test/contract/sqlite/repository/kubernetes-manifests.e2e-spec.ts checks
 * that the worker Deployment sets the same flags and that they fit the
 * memory limit.
 *
 * Why the pod sets them at all: inside its 512 MiB memory cgroup, Node 24
 * sizes the young generation to 1 MB semi-spaces (a list of 20 projects
 * then cost 39% more CPU per request); on a large machine, without a
 * cgroup, it gives 64 MB semi-spaces and a quarter of the machine's memory
 * to the old generation, and collects that much later than any pod does.
 * Explicit flags give the same heap in both places (docs/performance.md,
 * "The pod's heap").
 */

const DEPLOYMENT = join(
  __dirname,
  '..',
  'deploy',
  'kubernetes',
  'deployment.yaml',
);

interface PodContainer {
  env?: { name: string; value?: string }[];
  resources?: { limits?: { memory?: string } };
}

function apiContainer(): PodContainer {
  const [doc] = parseAllDocuments(readFileSync(DEPLOYMENT, 'utf8'));
  const deployment = doc.toJS() as {
    spec: { template: { spec: { containers: PodContainer[] } } };
  };
  return deployment.spec.template.spec.containers[0];
}

/** The container's NODE_OPTIONS, split into flags. */
export function podNodeOptions(): string[] {
  const value = apiContainer().env?.find(
    (entry) => entry.name === 'NODE_OPTIONS',
  )?.value;
  if (!value) throw new Error(`${DEPLOYMENT} sets no NODE_OPTIONS`);
  return value.trim().split(/\s+/);
}

/** limits.memory of the container, in bytes (Ki/Mi/Gi suffixes). */
export function podMemoryLimitBytes(): number {
  const limit = apiContainer().resources?.limits?.memory ?? '';
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(limit);
  if (!match) throw new Error(`Unreadable memory limit "${limit}"`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}

/** The heap flags the pod's Node.js starts with. */
export const POD_HEAP_FLAGS = podNodeOptions().filter((flag) =>
  /^--max-(old|semi)-space-size=\d+$/.test(flag),
);
