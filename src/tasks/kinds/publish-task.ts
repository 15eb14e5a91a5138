import { Injectable } from '@nestjs/common';
import { PublishInputDto } from '../../sites/dto/publish-input.dto';
import { PageGoneError } from '../../sites/page-gone.error';
import { buildSite, KIT_FILES_SERVED } from '../../sites/site-build';
import { SiteSources } from '../../sites/site-sources';
import { SitesService } from '../../sites/sites.service';
import { deploymentFileName } from '../../sites/site-files';
import type { TaskKind, TaskWork } from './task-kind';

/** A landing page is a few hundred kilobytes; its logo may be inlined. */
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** The kit's icons are at most 512×512 PNGs. */
const ICON_MAX_BYTES = 2 * 1024 * 1024;
/** A 1200×630 PNG. */
const OG_MAX_BYTES = 8 * 1024 * 1024;
/** What made a deployment record: no model, the service itself. */
const MODEL = 'site publisher';

/** The input as stored: the page the gate judged, and the report it passed. */
interface PreparedInput {
  force?: boolean;
  pageId: string;
  reportId: string | null;
}

/**
 * `publish`: the CODE agent publishes the CODE section's chosen landing
 * page as the project's next site version, into DEPLOYMENT. At creation
 * the gate (SitesService.gate) needs the page's newest site check report
 * without errors, unless `force`. The work builds the site's files (the
 * page with its icons and social card, the brand kit's icons, og.png),
 * writes the version, keeps its record (a `deployment` asset) and then
 * makes it current. A retried attempt finds the version it wrote.
 */
@Injectable()
export class PublishTask implements TaskKind {
  readonly type = 'publish';
  readonly agentType = 'CODE';
  readonly sectionType = 'DEPLOYMENT';
  readonly input = PublishInputDto;

  constructor(
    private readonly sites: SitesService,
    private readonly sources: SiteSources,
  ) {}

  /** The gate: its verdict (page, report) is stored with the input. */
  async accept(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<Record<string, unknown>> {
    const force = (input as PublishInputDto).force === true;
    const verdict = await this.sites.gate(projectId, force, owner);
    return { pageId: verdict.pageId, reportId: verdict.reportId };
  }

  async run(work: TaskWork): Promise<void> {
    const { pageId, reportId } = work.task.input as unknown as PreparedInput;
    const projectId = work.project.id;
    const page = await this.sources.read(
      projectId,
      pageId,
      PAGE_MAX_BYTES,
      work.signal,
    );
    if (!page || !page.contentType.startsWith('text/html')) {
      throw new PageGoneError();
    }
    const url = this.sites.urlOf(projectId);
    const files = await buildSite({
      url,
      title: work.project.name,
      description: work.project.description,
      page: page.bytes,
      kit: await this.sources.kitFiles(
        projectId,
        KIT_FILES_SERVED,
        ICON_MAX_BYTES,
      ),
      og: await this.sources.ogGraphic(projectId, OG_MAX_BYTES),
    });
    const site = await this.sites.addVersion({
      projectId,
      taskId: work.task.id,
      reportId,
      files,
    });
    if (!site) throw new PageGoneError();
    // An earlier attempt may have kept the record already.
    if (work.done === 0) {
      const record = {
        version: site.version,
        url,
        files: site.files,
        publishedAt: site.publishedAt,
        reportId: site.reportId,
      };
      await work.keep({
        kind: 'deployment',
        contentType: 'application/json',
        bytes: Buffer.from(JSON.stringify(record)),
        prompt: `Site version ${site.version} of landing page ${pageId}`,
        model: MODEL,
        fileName: deploymentFileName(site.version),
      });
    }
    await this.sites.makeCurrent(site);
  }
}
