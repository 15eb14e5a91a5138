import {
  openScratchSqlite,
  type ScratchSqlite,
} from '../../test/support/scratch-sqlite';
import type { Project } from '../projects/entities/project.entity';
import type { ChangeLog } from '../change-log/change-log.repository';
import type { Database } from '../database/database.service';
import { readIfMatch } from './project-version';
import { ProjectScope } from './project-scope.repository';
import {
  ProjectNotFoundException,
  ProjectPreconditionFailedException,
} from './project-scope.errors';

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

describe('ProjectScope (SQLite)', () => {
  let scratch: ScratchSqlite;
  let project: Project;

  beforeAll(async () => {
    scratch = await openScratchSqlite();
  });

  beforeEach(async () => {
    project = await scratch.insertProject('ann', 'Ann');
  });

  afterAll(() => scratch.close());

  /** One change of the project with an event, as every route makes. */
  const change = (
    ifMatch?: '*' | number[],
    owner?: string,
    projectId = project.id,
  ) =>
    scratch.db.transaction(async (transaction) => {
      const version = await scratch.scope.advance(transaction, {
        projectId,
        owner,
        ifMatch,
        missing: () => new Missing(),
      });
      scratch.changeLog.record(transaction, projectId, {
        type: 'project.updated',
        key: projectId,
        data: { fields: ['name'] },
      });
      return version;
    });

  it('every change moves the version on by one', async () => {
    await expect(change()).resolves.toBe(2);
    await expect(change()).resolves.toBe(3);
  });

  it('with If-Match, only a project at a version it names changes; else 412 and nothing moves', async () => {
    await expect(change([1])).resolves.toBe(2);
    await expect(change([1])).rejects.toBeInstanceOf(
      ProjectPreconditionFailedException,
    );
    await expect(change([5, 2])).resolves.toBe(3);
    await expect(change('*')).resolves.toBe(4);
  });

  it("another owner's project is the route's own failure without If-Match, 412 with it", async () => {
    await expect(change(undefined, 'bob')).rejects.toBeInstanceOf(Missing);
    await expect(change([1], 'bob')).rejects.toBeInstanceOf(
      ProjectPreconditionFailedException,
    );
    await expect(change(undefined, 'ann')).resolves.toBe(2);
    await expect(change(undefined, undefined, ID)).rejects.toBeInstanceOf(
      Missing,
    );
  });

  it('answers "Project not found" for an id no project could have, another owner\'s project or none, and nothing for one the caller sees', async () => {
    const { scope } = scratch;
    await expect(
      scope.assertVisible(project.id, 'ann'),
    ).resolves.toBeUndefined();
    await expect(
      scope.assertVisible(project.id, undefined),
    ).resolves.toBeUndefined();
    for (const [id, owner] of [
      ['not-an-id', undefined],
      [project.id, 'bob'],
      ['019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20', undefined],
    ] as const) {
      await expect(scope.assertVisible(id, owner)).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
    }
  });

  it('tells whether a project is visible to an owner, and holds only one that is', async () => {
    const { scope, db } = scratch;
    await expect(scope.isVisible(project.id, 'ann')).resolves.toBe(true);
    await expect(scope.isVisible(project.id, 'bob')).resolves.toBe(false);
    await expect(scope.isVisible(project.id, undefined)).resolves.toBe(true);
    await expect(scope.nameOf(project.id, 'bob')).resolves.toBeUndefined();
    await expect(scope.nameOf(project.id, undefined)).resolves.toBe('Ann');
    await expect(
      db.transaction((transaction) =>
        scope.hold(transaction, { projectId: project.id, owner: 'bob' }),
      ),
    ).resolves.toBe(false);
    await expect(
      db.transaction((transaction) =>
        scope.hold(transaction, { projectId: project.id }),
      ),
    ).resolves.toBe(true);
  });
});
