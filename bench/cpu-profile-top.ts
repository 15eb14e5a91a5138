import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT } from './settings';

/**
 * Prints the functions with the most self time in a V8 CPU profile, e.g.
 * one written by the service under `BENCH_SERVER_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" npm run bench`:
 *
 *   node -r ts-node/register/transpile-only bench/cpu-profile-top.ts <file.cpuprofile> [count]
 */

interface ProfileNode {
  id: number;
  callFrame: {
    functionName: string;
    url: string;
    lineNumber: number;
  };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-top.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

// Each sample is charged to the node on top of the stack, for the time until
// the next sample.
const selfUs = new Map<string, number>();
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i + 1] ?? 0;
  const frame = byId.get(id)!.callFrame;
  const where = frame.url
    ? `${relative(REPO_ROOT, frame.url.replace(/^file:\/\//, ''))}:${frame.lineNumber + 1}`
    : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  totalUs += delta;
});

const top = [...selfUs.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(countArg ?? 15));
console.log(`total sampled ${(totalUs / 1000).toFixed(0)} ms`);
console.log('| # | self ms | self % | function |');
console.log('|---|---|---|---|');
top.forEach(([name, us], i) =>
  console.log(
    `| ${i + 1} | ${(us / 1000).toFixed(0)} | ${((us / totalUs) * 100).toFixed(1)} | \`${name}\` |`,
  ),
);
