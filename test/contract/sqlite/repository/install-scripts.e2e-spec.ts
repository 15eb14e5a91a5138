import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * npm runs a dependency's install scripts only when package.json's
 * allowScripts says so; every package that has one is decided there, so
 * `npm ci` prints no "not yet covered" warning and nothing runs by default.
 */

interface Manifest {
  name?: string;
  scripts?: Record<string, string>;
  gypfile?: boolean;
  allowScripts?: Record<string, boolean>;
  scarfSettings?: { enabled?: boolean };
}

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Installed packages with an install script (or a binding.gyp, which npm builds). */
function packagesWithInstallScripts(nodeModules: string): Set<string> {
  const found = new Set<string>();
  const visit = (dir: string) => {
    if (!existsSync(join(dir, 'package.json'))) return;
    const manifest = readManifest(dir);
    // A binding.gyp is built by npm unless the package says "gypfile": false
    // (better-sqlite3 does: it ships prebuilt Node-API modules instead).
    const scripted =
      INSTALL_SCRIPTS.some((name) => manifest.scripts?.[name]) ||
      (existsSync(join(dir, 'binding.gyp')) && manifest.gypfile !== false);
    if (scripted && manifest.name) found.add(manifest.name);
    walk(join(dir, 'node_modules'));
  };
  const walk = (folder: string) => {
    if (!existsSync(folder)) return;
    for (const entry of readdirSync(folder)) {
      if (entry.startsWith('.')) continue;
      if (entry.startsWith('@')) {
        for (const scoped of readdirSync(join(folder, entry))) {
          visit(join(folder, entry, scoped));
        }
      } else {
        visit(join(folder, entry));
      }
    }
  };
  walk(nodeModules);
  return found;
}

describe('install scripts of dependencies', () => {
  const manifest = readManifest(REPO_ROOT);
  const decided = Object.keys(manifest.allowScripts ?? {}).map((key) =>
    key.replace(/(.)@.*$/, '$1'),
  );

  it('decides every installed package with an install script in allowScripts', () => {
    const scripted = [
      ...packagesWithInstallScripts(join(REPO_ROOT, 'node_modules')),
    ];
    // The pinned Node.js is a locked package with its binary inside, not a
    // script that fetches one outside the lockfile.
    expect(scripted).not.toContain('node');
    expect(scripted).not.toContain('better-sqlite3');
    expect(scripted.filter((name) => !decided.includes(name))).toEqual([]);
  });

  it("keeps @scarf/scarf's usage analytics off, with npm versions that ignore allowScripts too", () => {
    expect(manifest.allowScripts?.['@scarf/scarf']).toBe(false);
    expect(manifest.scarfSettings?.enabled).toBe(false);
  });
});
