import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT } from './settings';

/**
 * Prints the functions and packages with the most self time in a V8 CPU
 * profile (idle excluded), e.g. one the service wrote under
 * `BENCH_SCENARIOS=get-by-id BENCH_SERVER_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" npm run bench`. Time spent in native code
 * (better-sqlite3's statements, socket writes) is charged to the JS function
 * that called it.
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

/** node_modules/<package>, node:internal, the app's own files, or native. */
function owner(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node core';
  const path = relative(REPO_ROOT, url.replace(/^file:\/\//, ''));
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  return inModules ? inModules[1] : path.split('/').slice(0, 2).join('/');
}

// Each sample is charged to the node on top of the stack, for the time until
// the next sample. Idle time is left out: shares are of the busy time, which
// is what a request costs.
const selfUs = new Map<string, number>();
const packageUs = new Map<string, number>();
let busyUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i + 1] ?? 0;
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === '(idle)') return;
  const where = frame.url
    ? `${relative(REPO_ROOT, frame.url.replace(/^file:\/\//, ''))}:${frame.lineNumber + 1}`
    : '';
  const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  const pkg = owner(frame.url);
  packageUs.set(pkg, (packageUs.get(pkg) ?? 0) + delta);
  busyUs += delta;
});

const count = Number(countArg ?? 15);
const print = (title: string, rows: Map<string, number>) => {
  console.log(`\n| # | self ms | % of busy | ${title} |`);
  console.log('|---|---|---|---|');
  [...rows.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .forEach(([name, us], i) =>
      console.log(
        `| ${i + 1} | ${(us / 1000).toFixed(0)} | ${((us / busyUs) * 100).toFixed(1)} | \`${name}\` |`,
      ),
    );
};
console.log(`busy (non-idle) time sampled: ${(busyUs / 1000).toFixed(0)} ms`);
print('function (self time)', selfUs);
print('package (self time)', packageUs);
