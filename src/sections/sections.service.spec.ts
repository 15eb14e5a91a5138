import { Test } from '@nestjs/testing';
import type { CallContext } from '../common/call-context';
import { Database, type Transaction } from '../database/database.service';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import {
  NotAResultOfSectionException,
  NothingChosenException,
  SectionInProgressException,
  SectionNotFoundException,
  SelectedAssetNotFoundException,
} from './sections.errors';
import { SectionsRepository } from './sections.repository';
import { SectionsService } from './sections.service';
import { WorkspaceStatuses } from './workspace-statuses.repository';
import { SelectionWatchers } from './selection-watchers';

const PROJECT = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e20';
const SECTION = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';
const ASSET = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e22';
const OTHER_SECTION = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e23';
const ref = { projectId: PROJECT, sectionId: SECTION };
const transaction = {} as Transaction;
const caller = (userId?: string) =>
  ({
    caller: userId ? { userId, admin: false } : undefined,
  }) as CallContext;

describe('SectionsService', () => {
  let service: SectionsService;
  let scope: { precheck: jest.Mock; advance: jest.Mock };
  let rows: {
    findTarget: jest.Mock;
    sectionOfAsset: jest.Mock;
    setSelection: jest.Mock;
    find: jest.Mock;
  };
  let statuses: { refresh: jest.Mock };
  let changed: string[];

  beforeEach(async () => {
    scope = { precheck: jest.fn(), advance: jest.fn().mockResolvedValue(8) };
    rows = {
      findTarget: jest
        .fn()
        .mockResolvedValue({ selectedAssetId: null, running: false }),
      sectionOfAsset: jest.fn().mockResolvedValue(SECTION),
      setSelection: jest.fn().mockResolvedValue(undefined),
      find: jest.fn().mockResolvedValue({ id: SECTION, status: 'DONE' }),
    };
    statuses = { refresh: jest.fn().mockResolvedValue(true) };
    const moduleRef = await Test.createTestingModule({
      providers: [
        SectionsService,
        {
          provide: Database,
          useValue: {
            transaction: (work: (t: Transaction) => Promise<unknown>) =>
              work(transaction),
          },
        },
        { provide: ProjectScope, useValue: scope },
        { provide: SectionsRepository, useValue: rows },
        { provide: WorkspaceStatuses, useValue: statuses },
        SelectionWatchers,
      ],
    }).compile();
    service = moduleRef.get(SectionsService);
    changed = [];
    moduleRef
      .get(SelectionWatchers)
      .listen((projectId) => changed.push(projectId));
  });

  it("choosing one of the section's results writes it, recomputes the statuses and answers the section with the project's new version", async () => {
    const change = await service.select(ref, ASSET, [7], caller());
    expect(rows.setSelection).toHaveBeenCalledWith(transaction, SECTION, ASSET);
    expect(statuses.refresh).toHaveBeenCalledWith(transaction, PROJECT);
    expect(change).toEqual({
      section: { id: SECTION, status: 'DONE' },
      version: 8,
    });
  });

  it('tells the watchers of selections once a choice committed, not when it was refused', async () => {
    await service.select(ref, ASSET, [7], caller());
    expect(changed).toEqual([PROJECT]);
    rows.findTarget.mockResolvedValueOnce({
      selectedAssetId: null,
      running: true,
    });
    await expect(service.select(ref, ASSET, [7], caller())).rejects.toThrow();
    expect(changed).toEqual([PROJECT]);
  });

  it("the service's own choice (a run's) is the same change without an owner or If-Match", async () => {
    await service.chooseFor(ref, ASSET);
    expect(scope.advance).toHaveBeenCalledWith(
      transaction,
      expect.objectContaining({ projectId: PROJECT, owner: undefined }),
    );
    expect(rows.setSelection).toHaveBeenCalledWith(transaction, SECTION, ASSET);
  });

  it("moves the version as the caller's own change, with the request's If-Match", async () => {
    await service.select(ref, ASSET, [7], caller('user-1'));
    expect(scope.advance).toHaveBeenCalledWith(
      transaction,
      expect.objectContaining({
        projectId: PROJECT,
        owner: 'user-1',
        ifMatch: [7],
      }),
    );
  });

  it('an asset that is not the project’s is 404, and nothing is written', async () => {
    rows.sectionOfAsset.mockResolvedValue(undefined);
    await expect(
      service.select(ref, ASSET, undefined, caller()),
    ).rejects.toBeInstanceOf(SelectedAssetNotFoundException);
    await expect(
      service.select(ref, 'not-an-id', undefined, caller()),
    ).rejects.toBeInstanceOf(SelectedAssetNotFoundException);
    expect(rows.setSelection).not.toHaveBeenCalled();
  });

  it('an asset of another section is 409; a section a task runs for is 409 first', async () => {
    rows.sectionOfAsset.mockResolvedValue(OTHER_SECTION);
    await expect(
      service.select(ref, ASSET, undefined, caller()),
    ).rejects.toBeInstanceOf(NotAResultOfSectionException);
    rows.findTarget.mockResolvedValue({ selectedAssetId: null, running: true });
    await expect(
      service.select(ref, ASSET, undefined, caller()),
    ).rejects.toBeInstanceOf(SectionInProgressException);
    expect(rows.setSelection).not.toHaveBeenCalled();
  });

  it('a section that is not the project’s is 404', async () => {
    rows.findTarget.mockResolvedValue(null);
    await expect(
      service.unselect(ref, undefined, caller()),
    ).rejects.toBeInstanceOf(SectionNotFoundException);
    await expect(
      service.unselect(
        { projectId: PROJECT, sectionId: 'nope' },
        undefined,
        caller(),
      ),
    ).rejects.toBeInstanceOf(SectionNotFoundException);
  });

  it('un-choosing when nothing is chosen is 409; otherwise the choice is cleared', async () => {
    await expect(
      service.unselect(ref, undefined, caller()),
    ).rejects.toBeInstanceOf(NothingChosenException);
    rows.findTarget.mockResolvedValue({
      selectedAssetId: ASSET,
      running: false,
    });
    await service.unselect(ref, undefined, caller());
    expect(rows.setSelection).toHaveBeenCalledWith(transaction, SECTION, null);
  });

  it('a change the project scope refuses before the transaction opens nothing', async () => {
    scope.precheck.mockImplementation(() => {
      throw new ProjectNotFoundException();
    });
    await expect(
      service.select(ref, ASSET, undefined, caller()),
    ).rejects.toBeInstanceOf(ProjectNotFoundException);
    expect(scope.advance).not.toHaveBeenCalled();
  });
});
