import { Injectable } from '@nestjs/common';
import { ProjectAccess } from '../auth/project-access';
import type { CallContext } from '../common/call-context';
import { isWellFormedId } from '../common/ids';
import { Database } from '../database/database.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { errorCount } from '../site-check/site-report';
import type { SiteDto } from './dto/site.dto';
import type { SiteFile } from './site-files';
import { SiteSources } from './site-sources';
import {
  NoChosenPageException,
  SiteCheckFailedException,
  SiteNotCheckedException,
  SiteNotFoundException,
  SiteVersionNotFoundException,
} from './sites.errors';
import { SitesRepository, type SiteVersionRow } from './sites.repository';
import { SiteStore } from './store/site-store';

/** What a publish may go ahead with: the page, and the report it passed. */
export interface PublishVerdict {
  pageId: string;
  /** Null when forced without a report. */
  reportId: string | null;
}

/** A version about to be published, its files built. */
export interface NewVersion {
  projectId: string;
  taskId: string;
  reportId: string | null;
  files: SiteFile[];
}

/**
 * Published sites: the gate a publish passes, versions (immutable,
 * numbered per project), which one is current, rollback and take-down.
 * Site changes do not move the project's version (ETag): the site is not
 * part of the project's document.
 */
@Injectable()
export class SitesService {
  constructor(
    private readonly sites: SitesRepository,
    private readonly sources: SiteSources,
    private readonly store: SiteStore,
    private readonly scope: ProjectScope,
    private readonly db: Database,
  ) {}

  /**
   * The publish gate, at creation: the CODE section's chosen landing page
   * (409 nothing_chosen), and its newest site check report, which must
   * have no errors (409 site_check_failed, with the report) and exist
   * (409 site_not_checked) unless `force`.
   */
  async gate(
    projectId: string,
    force: boolean,
    owner: string | undefined,
  ): Promise<PublishVerdict> {
    if (!(await this.scope.isVisible(projectId, owner))) {
      throw new ProjectNotFoundException();
    }
    const pageId = await this.sources.chosenPage(projectId);
    if (!pageId) throw new NoChosenPageException();
    const checked = await this.sources.reportOf(projectId, pageId);
    if (force) return { pageId, reportId: checked?.id ?? null };
    if (!checked) throw new SiteNotCheckedException();
    if (errorCount(checked.report) > 0) {
      throw new SiteCheckFailedException(checked.report);
    }
    return { pageId, reportId: checked.id };
  }

  /** The address of the project's current site. */
  urlOf(projectId: string): string {
    return this.store.urlOf(projectId);
  }

  /**
   * Writes the next version and places its files (not yet current). A
   * retried task gets the version its earlier attempt wrote. Undefined
   * when the project is gone.
   */
  async addVersion(site: NewVersion): Promise<SiteVersionRow | undefined> {
    const earlier = await this.sites.versionOfTask(site.taskId);
    if (earlier) {
      await this.store.putVersion(
        earlier.projectId,
        earlier.version,
        site.files,
      );
      return earlier;
    }
    const row = {
      projectId: site.projectId,
      taskId: site.taskId,
      reportId: site.reportId,
      files: site.files.map(({ path, contentType, byteSize, sha256 }) => ({
        path,
        contentType,
        byteSize,
        sha256,
      })),
      publishedAt: new Date().toISOString(),
    };
    const version = await this.sites.addVersion(
      row,
      this.store.bytesInDatabase ? site.files : [],
    );
    if (version === undefined) return undefined;
    await this.store.putVersion(site.projectId, version, site.files);
    return { ...row, version };
  }

  /**
   * Makes a published version current once its deployment record is kept,
   * unless a newer one is current already (an older publish finishing
   * last leaves the newer in place).
   */
  async makeCurrent(site: SiteVersionRow): Promise<void> {
    const { projectId, version } = site;
    const advanced = await this.db.transaction(async (transaction) => {
      if (!(await this.scope.hold(transaction, { projectId }))) return false;
      return this.sites.advanceCurrent(
        transaction,
        projectId,
        version,
        new Date().toISOString(),
      );
    });
    if (advanced) await this.store.showCurrent(projectId, version, site.files);
  }

  /** GET /api/projects/{id}/site. */
  async site(projectId: string, context: CallContext): Promise<SiteDto> {
    const owner = ProjectAccess.of(context).readOwner();
    await this.scope.assertVisible(projectId, owner);
    const current = await this.sites.current(projectId);
    if (!current) throw new SiteNotFoundException();
    return this.toDto(current, current.deploymentId);
  }

  /** POST /api/projects/{id}/site/rollback. */
  async rollback(
    projectId: string,
    version: number,
    context: CallContext,
  ): Promise<SiteDto> {
    const owner = ProjectAccess.of(context).changeOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const row = await this.switchTo(projectId, version, owner);
    await this.store.showCurrent(projectId, version, row.files);
    return this.site(projectId, context);
  }

  /** DELETE /api/projects/{id}/site: the address answers 404 from now on. */
  async takeDown(projectId: string, context: CallContext): Promise<void> {
    const owner = ProjectAccess.of(context).changeOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const taken = await this.db.transaction(async (transaction) => {
      if (!(await this.scope.hold(transaction, { projectId, owner }))) {
        throw new ProjectNotFoundException();
      }
      return this.sites.takeDown(
        transaction,
        projectId,
        new Date().toISOString(),
      );
    });
    if (!taken) throw new SiteNotFoundException();
    await this.store.hide(projectId);
  }

  private async switchTo(
    projectId: string,
    version: number,
    owner: string | undefined,
  ): Promise<SiteVersionRow> {
    const row = await this.db.transaction(async (transaction) => {
      if (!(await this.scope.hold(transaction, { projectId, owner }))) {
        throw new ProjectNotFoundException();
      }
      const known = await this.sites.makeCurrent(
        transaction,
        projectId,
        version,
        new Date().toISOString(),
      );
      return known;
    });
    if (!row) throw new SiteVersionNotFoundException();
    const site = await this.sites.version(projectId, version);
    if (!site) throw new SiteVersionNotFoundException();
    return site;
  }

  private toDto(row: SiteVersionRow, deploymentId: string | null): SiteDto {
    return {
      url: this.store.urlOf(row.projectId),
      version: row.version,
      versionUrl: this.store.versionUrlOf(row.projectId, row.version),
      publishedAt: row.publishedAt,
      deploymentId,
    };
  }
}
