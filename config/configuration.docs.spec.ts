import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every variable a configuration file reads (each feature's *.config.ts in
 * src/, and the dev servers' in dev-servers/) is documented: a row in
 * README's tables and a line in .env.example.
 */

const ROOT = join(__dirname, '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const envExample = readFileSync(join(ROOT, '.env.example'), 'utf8');

const configFiles = ['src', 'dev-servers'].flatMap((folder) =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.config.ts'))
    .map((path) => join(folder, path)),
);

const variablesOf = (file: string) =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g,
    ),
  ].map((m) => m[1]);

const variables = [...new Set(configFiles.flatMap(variablesOf))];

describe('configuration documentation', () => {
  it('finds the variables every configuration file reads', () => {
    expect(configFiles.length).toBeGreaterThanOrEqual(14);
    // A file whose reads this pattern misses would go unchecked.
    expect(
      configFiles.filter((file) => variablesOf(file).length === 0),
    ).toEqual([]);
    expect(variables).toEqual(
      expect.arrayContaining([
        'PORT',
        'CORS_ORIGINS',
        'LOG_FORMAT',
        'SHUTDOWN_TIMEOUT_MS',
        'DATABASE_URL',
        'IMAGE_API_KEY',
        'ASSET_STORE',
        'AUTH_MODE',
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        'IMAGE_DEV_PORT',
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
