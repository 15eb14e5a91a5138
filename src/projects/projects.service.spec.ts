import { Test } from '@nestjs/testing';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { AssetUrls } from '../assets/asset-urls';
import type { CallContext } from '../common/call-context';
import { newId } from '../common/ids';
import { Database } from '../database/database.service';
import { AuthFailure } from '../failures/auth-failure.error';
import { InputValidationException } from '../failures/input-validation.error';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import type { ProjectChange } from '../project-scope/project-scope.repository';
import { ListSlots } from './list-slots';
import { ProjectCreateRateLimit } from './project-create-rate-limit';
import { projectsConfig } from './projects.config';
import { ProjectChangeRejectedError } from './projects.errors';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';

const ID = newId();

const contextOf = (caller?: { userId: string; admin: boolean }) =>
  ({
    caller,
    clientKey: caller ? `user:${caller.userId}` : 'ip:203.0.113.9',
    address: '203.0.113.9',
    baseUrlOrRelative: () => 'https://api.example.com',
  }) as unknown as CallContext;
const ANYONE = contextOf();
const ANN = contextOf({ userId: 'ann', admin: false });
const ADMIN = contextOf({ userId: 'root', admin: true });

const KEY = {
  recordId: 'record-1',
  fingerprint: 'body-1',
  answerOf: () => ({ status: 201, headers: {}, body: '{}' }),
};
const REPLAY = { replayed: true } as never;
const NEW_PROJECT = { name: 'Acme', userId: 'ann' };

async function build(options: { rateLimited?: boolean } = {}) {
  const transaction = { name: 'transaction' };
  const db = {
    transaction: jest.fn((work: (t: unknown) => unknown) => work(transaction)),
  };
  const projects = {
    insertNew: jest.fn().mockResolvedValue(undefined),
    openList: jest
      .fn()
      .mockResolvedValue({ next: jest.fn(), close: jest.fn() }),
    findPage: jest.fn().mockResolvedValue({ projects: [], next: undefined }),
    findVersion: jest.fn().mockResolvedValue(null),
    findDetail: jest.fn().mockResolvedValue(null),
    update: jest.fn(),
    remove: jest.fn().mockResolvedValue({ assets: [] }),
  };
  const idempotency = {
    replay: jest.fn().mockResolvedValue(undefined),
    recordInTransaction: jest.fn().mockResolvedValue(true),
  };
  const createRateLimit = {
    enabled: options.rateLimited ?? true,
    consume: jest.fn().mockResolvedValue(undefined),
  };
  const release = jest.fn();
  const listSlots = { take: jest.fn().mockResolvedValue(release) };
  const assetUrls = {
    partsFor: jest.fn(() => ({ before: '', after: '', expires: 1234 })),
    urlOf: jest.fn(
      (asset: { id: string; projectId: string }, base: string) =>
        `${base}/api/projects/${asset.projectId}/assets/${asset.id}/content?expires=9&signature=s`,
    ),
  };
  const assetBytes = { forget: jest.fn().mockResolvedValue(undefined) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      ProjectsService,
      { provide: Database, useValue: db },
      { provide: ProjectsRepository, useValue: projects },
      { provide: IdempotencyService, useValue: idempotency },
      { provide: ProjectCreateRateLimit, useValue: createRateLimit },
      { provide: ListSlots, useValue: listSlots },
      { provide: AssetUrls, useValue: assetUrls },
      { provide: AssetBytes, useValue: assetBytes },
      {
        provide: projectsConfig.KEY,
        useValue: { patchLengthLimits: false },
      },
    ],
  }).compile();
  return {
    service: moduleRef.get(ProjectsService),
    transaction,
    projects,
    idempotency,
    createRateLimit,
    listSlots,
    release,
    assetBytes,
    assetUrls,
  };
}

describe('ProjectsService', () => {
  describe('create', () => {
    it('inserts the project with its sections and agents, counted against the client first', async () => {
      const { service, projects, createRateLimit } = await build();
      const created = await service.create(NEW_PROJECT, ANYONE);
      expect(createRateLimit.consume).toHaveBeenCalledWith('ip:203.0.113.9');
      const [[, project]] = projects.insertNew.mock.calls as [
        [unknown, { id: string; sections: unknown[]; agents: unknown[] }],
      ];
      expect(project.sections).toHaveLength(8);
      expect(project.agents).toHaveLength(3);
      expect(created).toMatchObject({ id: project.id, version: 1 });
    });

    it('a caller may not create a project for another user (403), and is not counted', async () => {
      const { service, createRateLimit, projects } = await build();
      await expect(
        service.create({ name: 'Acme', userId: 'bob' }, ANN),
      ).rejects.toBeInstanceOf(AuthFailure);
      expect(createRateLimit.consume).not.toHaveBeenCalled();
      expect(projects.insertNew).not.toHaveBeenCalled();
    });

    it('a keyed retry of a create already made is answered again without being counted', async () => {
      const { service, idempotency, createRateLimit, projects } = await build();
      idempotency.replay.mockResolvedValue(REPLAY);
      await expect(service.create(NEW_PROJECT, ANYONE, KEY)).resolves.toBe(
        REPLAY,
      );
      expect(createRateLimit.consume).not.toHaveBeenCalled();
      expect(projects.insertNew).not.toHaveBeenCalled();
    });

    it("the key's record commits in the project's transaction; a key taken meanwhile gets its first answer", async () => {
      const { service, idempotency, projects, transaction } = await build({
        rateLimited: false,
      });
      idempotency.recordInTransaction.mockResolvedValue(false);
      idempotency.replay.mockResolvedValue(REPLAY);
      await expect(service.create(NEW_PROJECT, ANYONE, KEY)).resolves.toBe(
        REPLAY,
      );
      expect(idempotency.recordInTransaction).toHaveBeenCalledWith(
        transaction,
        KEY,
        expect.anything(),
      );
      expect(projects.insertNew).not.toHaveBeenCalled();
    });

    it('a key whose record expired between the two steps starts afresh', async () => {
      const { service, idempotency, projects } = await build({
        rateLimited: false,
      });
      idempotency.recordInTransaction
        .mockResolvedValueOnce(false)
        .mockResolvedValueOnce(true);
      await service.create(NEW_PROJECT, ANYONE, KEY);
      expect(idempotency.recordInTransaction).toHaveBeenCalledTimes(2);
      expect(projects.insertNew).toHaveBeenCalledTimes(1);
    });
  });

  describe('lists', () => {
    it('a page needs a limit (400), and shows only the caller’s own projects', async () => {
      const { service, projects } = await build();
      await expect(service.listPage({}, ANYONE)).rejects.toBeInstanceOf(
        InputValidationException,
      );
      await expect(
        service.listPage({ limit: 5, userId: 'bob' }, ANN),
      ).rejects.toBeInstanceOf(AuthFailure);
      await service.listPage({ limit: 5 }, ANN);
      expect(projects.findPage).toHaveBeenLastCalledWith('ann', {
        limit: 5,
        after: undefined,
      });
      await expect(service.listPage({ limit: 5 }, ANN)).resolves.toEqual({
        projects: [],
        nextCursor: null,
      });
      await service.listPage({ limit: 5, userId: 'bob' }, ADMIN);
      expect(projects.findPage).toHaveBeenLastCalledWith('bob', {
        limit: 5,
        after: undefined,
      });
    });

    it.each([
      ['q', { q: 'x' }],
      ['sort', { sort: 'name' as const }],
      ['order', { order: 'asc' as const }],
      ['view', { view: 'summary' as const }],
      ['includeTotal', { includeTotal: 'true' as const }],
      ['cursor', { cursor: 'c' }],
    ])(
      'a page parameter (%s) needs a limit: 400 naming it',
      async (name, query) => {
        const { service, projects } = await build();
        const failure = await service
          .listPage(query, ANYONE)
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(InputValidationException);
        expect((failure as InputValidationException).issues).toEqual([
          {
            path: ['limit'],
            message: `Required with ${name}`,
            code: 'invalid_type',
          },
        ]);
        expect(projects.findPage).not.toHaveBeenCalled();
      },
    );

    it('a page passes on only what was asked: search, a non-default order, the summary view, the total', async () => {
      const { service, projects } = await build();
      await service.listPage(
        {
          limit: 5,
          q: 'Launch',
          sort: 'name',
          view: 'summary',
          includeTotal: 'true',
        },
        ANYONE,
      );
      expect(projects.findPage).toHaveBeenLastCalledWith(undefined, {
        limit: 5,
        after: undefined,
        search: 'Launch',
        order: { sort: 'name', order: 'asc' },
        view: 'summary',
        withTotal: true,
      });
      await service.listPage(
        {
          limit: 5,
          q: '',
          sort: 'updatedAt',
          order: 'desc',
          view: 'full',
          includeTotal: 'false',
        },
        ANYONE,
      );
      expect(projects.findPage).toHaveBeenLastCalledWith(undefined, {
        limit: 5,
        after: undefined,
      });
    });

    it("the next cursor carries the page's order, and a cursor of another order is refused before any read", async () => {
      const { service, projects } = await build();
      projects.findPage.mockResolvedValue({
        projects: ['{}'],
        next: { key: 'acme', id: ID },
      });
      const { nextCursor } = await service.listPage(
        { limit: 1, sort: 'name' },
        ANYONE,
      );
      await service.listPage(
        { limit: 1, sort: 'name', cursor: nextCursor! },
        ANYONE,
      );
      expect(projects.findPage).toHaveBeenLastCalledWith(undefined, {
        limit: 1,
        after: { key: 'acme', id: ID },
        order: { sort: 'name', order: 'asc' },
      });
      projects.findPage.mockClear();
      await expect(
        service.listPage(
          { limit: 1, sort: 'name', order: 'desc', cursor: nextCursor! },
          ANYONE,
        ),
      ).rejects.toBeInstanceOf(InputValidationException);
      await expect(
        service.listPage({ limit: 1, cursor: nextCursor! }, ANYONE),
      ).rejects.toBeInstanceOf(InputValidationException);
      expect(projects.findPage).not.toHaveBeenCalled();
    });

    it("a summary item ends with its chosen logo's 128-pixel thumbnail URL, as signed for the caller, or null", async () => {
      const { service, projects, assetUrls } = await build();
      const other = newId();
      const logo = newId();
      projects.findPage.mockResolvedValue({
        projects: [`{"id":"${ID}"}`, `{"id":"${other}"}`],
        logos: [{ projectId: ID, assetId: logo }, null],
        total: 2,
      });
      const page = await service.listPage(
        { limit: 2, view: 'summary', includeTotal: 'true' },
        ANN,
      );
      expect(page.projects.map((json) => JSON.parse(json) as unknown)).toEqual([
        {
          id: ID,
          logoThumbnailUrl: `https://api.example.com/api/projects/${ID}/assets/${logo}/content?expires=9&signature=s&size=128`,
        },
        { id: other, logoThumbnailUrl: null },
      ]);
      expect(assetUrls.urlOf).toHaveBeenCalledWith(
        { id: logo, projectId: ID },
        'https://api.example.com',
      );
      expect(page).toMatchObject({ nextCursor: null, total: 2 });
    });

    it("a full list holds one of its client's slots until it closes, and frees it when it cannot open", async () => {
      const { service, projects, listSlots, release } = await build();
      const body = await service.listAll(undefined, ANN);
      expect(listSlots.take).toHaveBeenCalledWith('user:ann');
      expect(release).not.toHaveBeenCalled();
      await body.close?.();
      expect(release).toHaveBeenCalled();

      release.mockClear();
      projects.openList.mockRejectedValue(new Error('no connection'));
      await expect(service.listAll(undefined, ANN)).rejects.toThrow(
        'no connection',
      );
      expect(release).toHaveBeenCalledTimes(1);
    });
  });

  describe('get', () => {
    it("a malformed id, or a project not the reader's, is 404", async () => {
      const { service, projects } = await build();
      await expect(
        service.get('nope', undefined, ANYONE),
      ).rejects.toBeInstanceOf(ProjectNotFoundException);
      await expect(service.get(ID, undefined, ANN)).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
      expect(projects.findDetail).toHaveBeenCalledWith(
        ID,
        expect.anything(),
        'ann',
      );
    });

    it('answers only the version when If-None-Match names the current one, the URLs’ expiry included', async () => {
      const { service, projects } = await build();
      projects.findVersion.mockResolvedValue({ version: 4, hasAssets: true });
      await expect(service.get(ID, ['4.1234'], ADMIN)).resolves.toEqual({
        unchanged: true,
        id: ID,
        version: 4,
        urlsExpire: 1234,
      });
      expect(projects.findVersion).toHaveBeenCalledWith(ID, undefined);
      expect(projects.findDetail).not.toHaveBeenCalled();

      projects.findDetail.mockResolvedValue({
        version: 4,
        document: '{}',
        hasAssets: true,
      });
      await expect(service.get(ID, ['4'], ADMIN)).resolves.toMatchObject({
        json: '{"project":{}}',
        urlsExpire: 1234,
      });
    });
  });

  describe('update and remove', () => {
    it('a caller may not hand its project to another user (403)', async () => {
      const { service, projects } = await build();
      await expect(
        service.update(ID, { userId: 'bob' }, undefined, ANN),
      ).rejects.toBeInstanceOf(AuthFailure);
      expect(projects.update).not.toHaveBeenCalled();
    });

    it("changes only the caller's own project; an unknown one is refused as project_not_found", async () => {
      const { service, projects, assetBytes } = await build();
      const gone = [{ projectId: ID, assetId: newId() }];
      projects.remove.mockResolvedValue({ assets: gone });
      await service.remove(ID, [3], ADMIN);
      const [change] = projects.remove.mock.calls[0] as [ProjectChange];
      expect(change).toMatchObject({
        projectId: ID,
        owner: 'root',
        ifMatch: [3],
      });
      const missing = change.missing();
      expect(missing).toBeInstanceOf(ProjectChangeRejectedError);
      expect((missing as ProjectChangeRejectedError).code).toBe(
        'project_not_found',
      );
      expect(assetBytes.forget).toHaveBeenCalledWith(gone);

      await service.remove(ID, undefined, ANYONE);
      const [open] = projects.remove.mock.calls[1] as [ProjectChange];
      expect(open).not.toHaveProperty('owner');
      expect(open).not.toHaveProperty('ifMatch');
    });
  });
});
