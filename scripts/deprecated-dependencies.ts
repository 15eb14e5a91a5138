import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run deps:deprecated`: asks the registry whether any package of the
 * production tree (package-lock.json, development-only entries left out)
 * is deprecated, and exits 1 naming each one. Not part of `npm test`: it
 * needs the registry.
 */

const run = promisify(execFile);
const PARALLEL = 8;

interface LockEntry {
  version?: string;
  dev?: boolean;
  devOptional?: boolean;
}

function productionPackages(): string[] {
  const lock = JSON.parse(
    readFileSync(join(__dirname, '..', 'package-lock.json'), 'utf8'),
  ) as { packages: Record<string, LockEntry> };
  const specs = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.devOptional || !entry.version) {
      continue;
    }
    specs.add(`${path.split('node_modules/').pop()}@${entry.version}`);
  }
  return [...specs].sort();
}

async function deprecation(spec: string): Promise<string | undefined> {
  const { stdout } = await run('npm', ['view', spec, 'deprecated', '--json']);
  const text = stdout.trim();
  return text === '' ? undefined : String(JSON.parse(text));
}

async function main(): Promise<void> {
  const specs = productionPackages();
  const found: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < specs.length) {
      const spec = specs[next++];
      const message = await deprecation(spec);
      if (message !== undefined) found.push(`${spec}: ${message}`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (found.length > 0) {
    console.error(`Deprecated in the production tree:\n${found.join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `None of the ${specs.length} production packages is deprecated.`,
    );
  }
}

void main();
