import { spawn } from 'node:child_process';

/**
 * `run-together.ts <script> <script> ...`: runs npm scripts at the same
 * time and fails if any fails. `npm test` pairs steps that each keep one
 * core busy (the type check beside lint, the unit tests beside the build)
 * so that a 2-core machine does both in the time of the longer. Each
 * script's output is held and printed whole when it ends, so the two never
 * interleave.
 */

interface Outcome {
  script: string;
  code: number;
  output: Buffer[];
}

function runScript(script: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const output: Buffer[] = [];
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      resolve({ script, code: 1, output });
    });
    child.on('close', (code, signal) => {
      resolve({ script, code: code ?? (signal ? 1 : 0), output });
    });
  });
}

async function main(): Promise<void> {
  const scripts = process.argv.slice(2);
  if (scripts.length === 0) {
    console.error('usage: run-together.ts <npm script> [<npm script> ...]');
    process.exit(2);
  }
  const outcomes = await Promise.all(
    scripts.map(async (script) => {
      const outcome = await runScript(script);
      process.stdout.write(`\n> ${script}\n`);
      for (const chunk of outcome.output) process.stdout.write(chunk);
      return outcome;
    }),
  );
  const failed = outcomes.filter((outcome) => outcome.code !== 0);
  for (const outcome of failed) {
    console.error(`npm run ${outcome.script} failed (exit ${outcome.code})`);
  }
  process.exit(failed.length === 0 ? 0 : 1);
}

void main();
