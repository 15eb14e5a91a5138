import type { CallContext } from '../common/call-context';
import type { Database, Transaction } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import type { SiteReport } from '../site-check/site-report';
import type { SiteFile } from './site-files';
import type { SiteSources } from './site-sources';
import {
  NoChosenPageException,
  SiteCheckFailedException,
  SiteNotCheckedException,
  SiteNotFoundException,
  SiteVersionNotFoundException,
} from './sites.errors';
import type { SitesRepository } from './sites.repository';
import { SitesService } from './sites.service';
import { DatabaseSiteStore } from './store/database-site-store';
import type { SiteStore } from './store/site-store';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const PAGE = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const context = {
  caller: { userId: 'ann', admin: false },
} as unknown as CallContext;

const report = (errors: number): SiteReport => ({
  assetId: PAGE,
  passed: errors === 0,
  score: 100 - errors,
  counts: { error: errors, warning: 0, info: 0 },
  findings: Array.from({ length: errors + 1 }, (_, i) => ({
    rule: 'r',
    severity: i < errors ? 'error' : 'warning',
    message: `m${i}`,
  })),
  summary: '',
  checkedAt: '2026-01-01T00:00:00.000Z',
});

const FILE: SiteFile = {
  path: 'index.html',
  contentType: 'text/html; charset=utf-8',
  byteSize: 2,
  sha256: 'c'.repeat(64),
  bytes: Buffer.from('hi'),
};

describe('SitesService', () => {
  let rows: Record<string, jest.Mock>;
  let sources: Record<string, jest.Mock>;
  let scope: Record<string, jest.Mock>;
  let store: SiteStore;
  let service: SitesService;

  beforeEach(() => {
    rows = {
      versionOfTask: jest.fn().mockResolvedValue(undefined),
      addVersion: jest.fn().mockResolvedValue(3),
      version: jest.fn().mockResolvedValue({ version: 1, files: [] }),
      current: jest.fn().mockResolvedValue(undefined),
      makeCurrent: jest.fn().mockResolvedValue(true),
      takeDown: jest.fn().mockResolvedValue(true),
    };
    sources = {
      chosenPage: jest.fn().mockResolvedValue(PAGE),
      reportOf: jest.fn().mockResolvedValue(undefined),
    };
    scope = {
      isVisible: jest.fn().mockResolvedValue(true),
      hold: jest.fn().mockResolvedValue(true),
      // The real check, over the mocked lookup above.
      assertVisible: jest.fn(function (
        this: unknown,
        projectId: string,
        owner: string | undefined,
      ) {
        return ProjectScope.prototype.assertVisible.call(
          this as ProjectScope,
          projectId,
          owner,
        );
      }),
    };
    store = new DatabaseSiteStore('http://sites.test');
    const db = {
      transaction: (work: (t: Transaction) => Promise<unknown>) =>
        work({} as Transaction),
    } as unknown as Database;
    service = new SitesService(
      rows as unknown as SitesRepository,
      sources as unknown as SiteSources,
      store,
      scope as unknown as ProjectScope,
      db,
    );
  });

  describe('the publish gate', () => {
    it('needs the chosen page (409 nothing_chosen), and a visible project first', async () => {
      scope.isVisible.mockResolvedValueOnce(false);
      await expect(service.gate(PROJECT, false, 'bob')).rejects.toBeInstanceOf(
        ProjectNotFoundException,
      );
      sources.chosenPage.mockResolvedValue(undefined);
      await expect(service.gate(PROJECT, true, 'ann')).rejects.toBeInstanceOf(
        NoChosenPageException,
      );
    });

    it('an unchecked page is refused unless forced (then no report is recorded)', async () => {
      await expect(service.gate(PROJECT, false, 'ann')).rejects.toBeInstanceOf(
        SiteNotCheckedException,
      );
      await expect(service.gate(PROJECT, true, 'ann')).resolves.toEqual({
        pageId: PAGE,
        reportId: null,
      });
    });

    it('a report with errors is refused with the report (50 findings at most) unless forced', async () => {
      sources.reportOf.mockResolvedValue({ id: 'r1', report: report(70) });
      const refusal = await service.gate(PROJECT, false, 'ann').catch((e) => e);
      expect(refusal).toBeInstanceOf(SiteCheckFailedException);
      const { report: shown } = (refusal as SiteCheckFailedException)
        .bodyFields;
      expect(shown).toMatchObject({ assetId: PAGE, passed: false, score: 30 });
      expect(shown.findings).toHaveLength(50);
      expect(shown).not.toHaveProperty('summary');
      await expect(service.gate(PROJECT, true, 'ann')).resolves.toEqual({
        pageId: PAGE,
        reportId: 'r1',
      });
    });

    it('a report without errors (warnings allowed) passes, and is recorded', async () => {
      sources.reportOf.mockResolvedValue({ id: 'r2', report: report(0) });
      await expect(service.gate(PROJECT, false, 'ann')).resolves.toEqual({
        pageId: PAGE,
        reportId: 'r2',
      });
    });
  });

  it('a new version is written with its files in the database store; a retried task gets its earlier one', async () => {
    const site = {
      projectId: PROJECT,
      taskId: 't1',
      reportId: null,
      files: [FILE],
    };
    await expect(service.addVersion(site)).resolves.toMatchObject({
      version: 3,
    });
    expect(rows.addVersion).toHaveBeenCalledWith(
      expect.objectContaining({
        files: [
          {
            path: 'index.html',
            contentType: FILE.contentType,
            byteSize: 2,
            sha256: FILE.sha256,
          },
        ],
      }),
      [FILE],
    );
    rows.versionOfTask.mockResolvedValue({ version: 1, projectId: PROJECT });
    await expect(service.addVersion(site)).resolves.toMatchObject({
      version: 1,
    });
    expect(rows.addVersion).toHaveBeenCalledTimes(1);
  });

  it('a published version is shown only when it became current (no newer one was)', async () => {
    const store = { showCurrent: jest.fn() };
    const shown = new SitesService(
      rows as unknown as SitesRepository,
      sources as unknown as SiteSources,
      store as unknown as SiteStore,
      scope as unknown as ProjectScope,
      {
        transaction: (work: (t: Transaction) => Promise<unknown>) =>
          work({} as Transaction),
      } as unknown as Database,
    );
    const site = {
      projectId: PROJECT,
      version: 2,
      taskId: 't',
      reportId: null,
      files: [],
      publishedAt: '2026-01-01T00:00:00.000Z',
    };
    rows.advanceCurrent = jest.fn().mockResolvedValue(true);
    await shown.makeCurrent(site);
    expect(store.showCurrent).toHaveBeenCalledWith(PROJECT, 2, []);
    rows.advanceCurrent.mockResolvedValue(false);
    await shown.makeCurrent(site);
    expect(store.showCurrent).toHaveBeenCalledTimes(1);
  });

  it('GET: 404 site_not_found when nothing is current; the address and version when it is', async () => {
    await expect(service.site(PROJECT, context)).rejects.toBeInstanceOf(
      SiteNotFoundException,
    );
    rows.current.mockResolvedValue({
      projectId: PROJECT,
      version: 2,
      publishedAt: '2026-01-01T00:00:00.000Z',
      deploymentId: null,
    });
    await expect(service.site(PROJECT, context)).resolves.toEqual({
      url: `http://sites.test/${PROJECT}/`,
      version: 2,
      versionUrl: `http://sites.test/${PROJECT}/v2/`,
      publishedAt: '2026-01-01T00:00:00.000Z',
      deploymentId: null,
    });
    await expect(service.site('nope', context)).rejects.toBeInstanceOf(
      ProjectNotFoundException,
    );
  });

  it('rollback: an unknown version is 404; another user’s project is 404 project_not_found', async () => {
    rows.makeCurrent.mockResolvedValue(false);
    await expect(service.rollback(PROJECT, 9, context)).rejects.toBeInstanceOf(
      SiteVersionNotFoundException,
    );
    scope.hold.mockResolvedValue(false);
    await expect(service.rollback(PROJECT, 1, context)).rejects.toBeInstanceOf(
      ProjectNotFoundException,
    );
    expect(scope.hold).toHaveBeenCalledWith(expect.anything(), {
      projectId: PROJECT,
      owner: 'ann',
    });
  });

  it('DELETE: 404 site_not_found when nothing was up', async () => {
    await expect(service.takeDown(PROJECT, context)).resolves.toBeUndefined();
    rows.takeDown.mockResolvedValue(false);
    await expect(service.takeDown(PROJECT, context)).rejects.toBeInstanceOf(
      SiteNotFoundException,
    );
  });
});
