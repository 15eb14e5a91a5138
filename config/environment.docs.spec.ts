import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every variable environment.ts reads is documented: a row in README's
 * tables and a line in .env.example.
 */

const ROOT = join(__dirname, '..');
const source = readFileSync(join(__dirname, 'environment.ts'), 'utf8');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const envExample = readFileSync(join(ROOT, '.env.example'), 'utf8');

const variables = [
  ...new Set(
    [...source.matchAll(/\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]),
  ),
];

describe('configuration documentation', () => {
  it('finds the variables environment.ts reads', () => {
    expect(variables).toEqual(
      expect.arrayContaining([
        'PORT',
        'CORS_ORIGINS',
        'LOG_FORMAT',
        'SHUTDOWN_TIMEOUT_MS',
      ]),
    );
  });

  it.each(variables)('documents %s in a README table row', (name) => {
    expect(readme).toContain(`| \`${name}\` |`);
  });

  it.each(variables)('lists %s in .env.example', (name) => {
    expect(envExample).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});
