import { Injectable } from '@nestjs/common';
import { ProjectAccess } from '../auth/project-access';
import type { ExpectedVersions } from '../project-scope/version-conditions';
import type { CallContext } from '../common/call-context';
import { isWellFormedId } from '../common/ids';
import { Database, type Transaction } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import {
  ProjectScope,
  type ProjectChange,
} from '../project-scope/project-scope.repository';
import type { SectionDto } from './dto/section.dto';
import {
  NotAResultOfSectionException,
  NothingChosenException,
  SectionInProgressException,
  SectionNotFoundException,
  SelectedAssetNotFoundException,
} from './sections.errors';
import {
  SectionsRepository,
  type SelectionTarget,
} from './sections.repository';
import { WorkspaceStatuses } from './workspace-statuses.repository';
import { SelectionWatchers } from './selection-watchers';

/** A section after a change of its selection, and the project's new version. */
export interface SectionChange {
  section: SectionDto;
  version: number;
}

/** Which section of which project a request names. */
interface SectionRef {
  projectId: string;
  sectionId: string;
}

/**
 * Choosing a section's result. Each change runs in one transaction that
 * first moves the project's version on (so If-Match, ownership and the
 * project's existence are checked as for PATCH, and changes to a project
 * take turns), then checks the section and asset, writes the selection and
 * recomputes the statuses.
 */
@Injectable()
export class SectionsService {
  constructor(
    private readonly db: Database,
    private readonly scope: ProjectScope,
    private readonly rows: SectionsRepository,
    private readonly statuses: WorkspaceStatuses,
    private readonly watchers: SelectionWatchers,
  ) {}

  /**
   * PUT …/sections/{sectionId}/selection: chooses one of the section's
   * assets; the section is then DONE. Choosing the chosen one again is
   * allowed (the answer is the same section).
   */
  select(
    ref: SectionRef,
    assetId: string,
    ifMatch: ExpectedVersions | undefined,
    context: CallContext,
  ): Promise<SectionChange> {
    const owner = ProjectAccess.of(context).changeOwner();
    return this.choose(ref, assetId, ifMatch, owner);
  }

  /**
   * The choice of PUT …/selection made by the service itself (a run that
   * chooses its steps' results), with the same checks: 409
   * section_in_progress while a task runs for the section.
   */
  chooseFor(ref: SectionRef, assetId: string): Promise<SectionChange> {
    return this.choose(ref, assetId, undefined, undefined);
  }

  private choose(
    ref: SectionRef,
    assetId: string,
    ifMatch: ExpectedVersions | undefined,
    owner: string | undefined,
  ): Promise<SectionChange> {
    return this.change(ref, ifMatch, owner, async (transaction, target) => {
      // The asset's existence first: a 404 says more than a 409 would.
      const owner = isWellFormedId(assetId)
        ? await this.rows.sectionOfAsset(transaction, ref.projectId, assetId)
        : undefined;
      if (owner === undefined) throw new SelectedAssetNotFoundException();
      if (target.running) throw new SectionInProgressException();
      if (owner !== ref.sectionId) throw new NotAResultOfSectionException();
      await this.rows.setSelection(transaction, ref.sectionId, assetId);
    });
  }

  /**
   * DELETE …/sections/{sectionId}/selection: no result is chosen any more;
   * the section is REVIEW again (PENDING if it has no results, IN_PROGRESS
   * while a task runs for it).
   */
  unselect(
    ref: SectionRef,
    ifMatch: ExpectedVersions | undefined,
    context: CallContext,
  ): Promise<SectionChange> {
    const owner = ProjectAccess.of(context).changeOwner();
    return this.change(ref, ifMatch, owner, async (transaction, target) => {
      if (target.selectedAssetId === null) throw new NothingChosenException();
      await this.rows.setSelection(transaction, ref.sectionId, null);
    });
  }

  private async change(
    ref: SectionRef,
    ifMatch: ExpectedVersions | undefined,
    owner: string | undefined,
    apply: (transaction: Transaction, target: SelectionTarget) => Promise<void>,
  ): Promise<SectionChange> {
    const change: ProjectChange = {
      projectId: ref.projectId,
      owner,
      ifMatch,
      missing: () => new ProjectNotFoundException(),
    };
    this.scope.precheck(change);
    const changed = await this.db.transaction(async (transaction) => {
      // Throwing after this rolls the version back: nothing changed.
      const version = await this.scope.advance(transaction, change);
      const target = isWellFormedId(ref.sectionId)
        ? await this.rows.findTarget(transaction, ref.projectId, ref.sectionId)
        : null;
      if (!target) throw new SectionNotFoundException();
      await apply(transaction, target);
      await this.statuses.refresh(transaction, ref.projectId);
      const section = await this.rows.find(transaction, ref.sectionId);
      return { section, version };
    });
    this.watchers.changed(ref.projectId);
    return changed;
  }
}
