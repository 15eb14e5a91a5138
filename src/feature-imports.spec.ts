import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sourceFilesUnder } from '../test/support/source-files';

/**
 * Kept logos and projects depend on each other one way only: projects
 * show and delete assets (projects -> assets); both change a project's
 * version through project-scope, which depends on neither. Sections
 * (a section's chosen result, the statuses of sections and agents) is
 * used by projects, assets and tasks, and uses none of them. A folder
 * cycle would make every change to one a change to the other.
 */
const FORBIDDEN: Record<string, string[]> = {
  assets: ['projects'],
  'project-scope': ['projects', 'assets', 'sections'],
  sections: ['projects', 'assets', 'tasks'],
};

/** The top folder of src/ an import of `file` lands in, if relative. */
function importedFolders(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map(([, path]) => {
    const target = relative(__dirname, join(file, '..', path));
    return target.split(sep)[0];
  });
}

describe('imports between feature folders', () => {
  it.each(Object.entries(FORBIDDEN))(
    'src/%s imports none of %j',
    (folder, forbidden) => {
      const offending = sourceFilesUnder(join(__dirname, folder)).flatMap(
        (file) =>
          importedFolders(file)
            .filter((target) => forbidden.includes(target))
            .map((target) => `${relative(__dirname, file)} -> ${target}`),
      );
      expect(offending).toEqual([]);
    },
  );
});

/**
 * The repositories every feature may use: the change log (each change
 * writes its event in its own transaction), the project scope (a
 * project's owner, visibility, name and version) and the workspace
 * statuses (recomputed in the transaction of every change). Any other
 * feature's rows are reached through its service.
 */
const SHARED_REPOSITORIES = [
  'change-log/change-log.repository',
  'project-scope/project-scope.repository',
  'sections/workspace-statuses.repository',
];

describe('repositories between feature folders', () => {
  it("no feature reads another feature's repository", () => {
    const offending = sourceFilesUnder(__dirname).flatMap((file) => {
      const folder = relative(__dirname, file).split(sep)[0];
      const text = readFileSync(file, 'utf8');
      // A type is no read: only what is imported as a value counts.
      return [
        ...text.matchAll(
          /^import (?!type )[^;]*from '(\.[^']+\.repository)'/gm,
        ),
      ]
        .map(([, path]) =>
          relative(__dirname, join(file, '..', path))
            .split(sep)
            .join('/'),
        )
        .filter(
          (target) =>
            target.split('/')[0] !== folder &&
            !SHARED_REPOSITORIES.includes(target),
        )
        .map((target) => `${relative(__dirname, file)} -> ${target}`);
    });
    expect(offending).toEqual([]);
  });
});
