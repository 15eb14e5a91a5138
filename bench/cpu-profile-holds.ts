import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { REPO_ROOT } from './settings';

/**
 * Prints the longest stretches a V8 CPU profile shows the thread busy
 * without a break (no `(idle)` sample): what holds the event loop, and the
 * functions that took most of each stretch (self time, the leaf frame, and
 * the deepest frame of the repository's own code on the stack). Profile
 * with a fine sampling interval, e.g. `node --cpu-prof
 * --cpu-prof-interval 100 …`; a stretch is as precise as that interval.
 *
 *   node -r ts-node/register/transpile-only bench/cpu-profile-holds.ts <file.cpuprofile> [count]
 */

interface ProfileNode {
  id: number;
  parent?: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-holds.ts <file.cpuprofile> [count]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
// V8 writes children, not parents: link them back.
for (const node of profile.nodes) {
  for (const child of node.children ?? []) byId.get(child)!.parent = node.id;
}

const where = (frame: ProfileNode['callFrame']) => {
  const path = frame.url
    ? relative(REPO_ROOT, frame.url.replace(/^file:\/\//, ''))
    : '';
  const name = frame.functionName || '(anonymous)';
  return path ? `${name} ${path}:${frame.lineNumber + 1}` : name;
};

/** The deepest frame on the stack from the repository's own code (src/, bench/). */
function ownFrame(id: number): string {
  for (let node = byId.get(id); node; node = byId.get(node.parent ?? -1)) {
    const url = node.callFrame.url.replace(/^file:\/\//, '');
    if (url.startsWith(REPO_ROOT) && !url.includes('node_modules')) {
      return where(node.callFrame);
    }
  }
  return '(none)';
}

interface Stretch {
  startUs: number;
  us: number;
  leaf: Map<string, number>;
  own: Map<string, number>;
}

const stretches: Stretch[] = [];
let current: Stretch | undefined;
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  const delta = profile.timeDeltas[i + 1] ?? 0;
  const node = byId.get(id)!;
  if (node.callFrame.functionName === '(idle)') {
    current = undefined;
    return;
  }
  if (!current) {
    current = { startUs: at, us: 0, leaf: new Map(), own: new Map() };
    stretches.push(current);
  }
  current.us += delta;
  const leaf = where(node.callFrame);
  current.leaf.set(leaf, (current.leaf.get(leaf) ?? 0) + delta);
  const own = ownFrame(id);
  current.own.set(own, (current.own.get(own) ?? 0) + delta);
});

const top = (rows: Map<string, number>, n: number) =>
  [...rows.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `${(us / 1000).toFixed(1)} ms ${name}`);

const count = Number(countArg ?? 5);
stretches
  .sort((a, b) => b.us - a.us)
  .slice(0, count)
  .forEach((stretch, i) => {
    console.log(
      `\n#${i + 1}: ${(stretch.us / 1000).toFixed(1)} ms busy, from ${((stretch.startUs - profile.startTime) / 1000).toFixed(0)} ms`,
    );
    console.log('  leaf frames:');
    for (const line of top(stretch.leaf, 6)) console.log(`    ${line}`);
    console.log('  own code on the stack:');
    for (const line of top(stretch.own, 4)) console.log(`    ${line}`);
  });
