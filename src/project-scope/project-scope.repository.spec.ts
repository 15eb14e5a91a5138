import type { ChangeLog } from '../change-log/change-log.repository';
import type { Database } from '../database/database.service';
import { readIfMatch } from './project-version';
import { ProjectScope } from './project-scope.repository';
import { ProjectPreconditionFailedException } from './project-scope.errors';

class Missing extends Error {}

const ID = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const versions = new ProjectScope(
  undefined as unknown as ChangeLog,
  undefined as unknown as Database,
);
const precheck = (projectId: string, ifMatch?: string) => () =>
  versions.precheck({
    projectId,
    ifMatch: readIfMatch(ifMatch),
    missing: () => new Missing(),
  });

describe('ProjectScope.precheck', () => {
  it("refuses a malformed id as the route's own failure, or 412 with If-Match", () => {
    expect(precheck('not-an-id')).toThrow(Missing);
    expect(precheck('not-an-id', '"3"')).toThrow(
      ProjectPreconditionFailedException,
    );
  });

  it('refuses an If-Match that names no version (weak or malformed) with 412', () => {
    expect(precheck(ID, 'W/"3"')).toThrow(ProjectPreconditionFailedException);
    expect(precheck(ID, 'three')).toThrow(ProjectPreconditionFailedException);
  });

  it('lets a well-formed id through, with or without a usable If-Match', () => {
    expect(precheck(ID)).not.toThrow();
    expect(precheck(ID, '"3"')).not.toThrow();
    expect(precheck(ID, '*')).not.toThrow();
  });
});
