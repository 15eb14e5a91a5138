import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Transaction } from '../../database/database.service';
import { AssetsService } from '../../assets/assets.service';
import { InputValidationException } from '../../failures/input-validation.error';
import { SiteCheckInputDto } from '../../site-check/dto/site-check-input.dto';
import { PageGoneError } from '../../site-check/page-gone.error';
import { PAGE_MAX_BYTES } from '../../site-check/page-rules';
import { NoChosenPageException } from '../../site-check/site-check.errors';
import {
  SITE_CHECKER,
  SITE_CHECK_TIMEOUT_MS,
  siteCheckOf,
} from '../../site-check/site-check';
import { stopSiteChecker } from '../../site-check/site-checker';
import { TasksRepository } from '../tasks.repository';
import { KeptContent } from './kept-content';
import type { TaskKind, TaskWork } from './task-kind';

/**
 * `site-check`: the CODE agent checks a landing page (the CODE section's
 * chosen one by default) without calling any model — HTML validity
 * (html-validate), accessibility (axe-core over jsdom, no layout) and
 * our own rules (self-contained, weight, head, headings, declared colour
 * contrast) — in a worker thread, and keeps one report, JSON of kind
 * `site-report` (src/site-check/site-report.ts), in TESTING. The task
 * succeeds whenever the check ran, whatever the page's findings.
 */
@Injectable()
export class SiteCheckTask implements TaskKind, OnApplicationShutdown {
  readonly type = 'site-check';
  readonly agentType = 'CODE';
  readonly sectionType = 'TESTING';
  readonly input = SiteCheckInputDto;

  constructor(
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
    private readonly kept: KeptContent,
  ) {}

  /** The checker's worker thread goes with the application. */
  onApplicationShutdown(): Promise<void> {
    return stopSiteChecker();
  }

  async accept(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<void> {
    const { assetId } = input as SiteCheckInputDto;
    if (assetId === undefined) return;
    const asset = await this.assets.record(projectId, assetId, owner);
    if (!asset || asset.kind !== 'landing-page') {
      throw new InputValidationException([
        {
          path: ['input', 'assetId'],
          message:
            'Expected a landing page (kind landing-page) of this project',
          code: 'custom',
        },
      ]);
    }
  }

  async prepare(
    transaction: Transaction,
    projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { assetId } = input as SiteCheckInputDto;
    const pageId =
      assetId ??
      (await this.tasks.chosenAssetOfKind(
        transaction,
        projectId,
        'CODE',
        'landing-page',
      ));
    if (!pageId) throw new NoChosenPageException();
    return { assetId: pageId };
  }

  async run(work: TaskWork): Promise<void> {
    const { assetId } = work.task.input as Required<SiteCheckInputDto>;
    const page = await this.assets.record(work.project.id, assetId);
    if (!page || page.kind !== 'landing-page') throw new PageGoneError();
    // A page over the bound is judged by its size alone, never read whole.
    const html =
      page.byteSize > PAGE_MAX_BYTES
        ? undefined
        : await this.kept.read(work, assetId, PAGE_MAX_BYTES);
    if (page.byteSize <= PAGE_MAX_BYTES && !html) throw new PageGoneError();
    const report = await siteCheckOf(
      {
        assetId,
        byteSize: page.byteSize,
        html: html?.bytes.toString('utf8'),
      },
      SITE_CHECK_TIMEOUT_MS,
      work.signal,
    );
    await work.keep({
      kind: 'site-report',
      contentType: 'application/json',
      bytes: Buffer.from(JSON.stringify(report)),
      fileName: 'site-report.json',
      prompt: `Site check of landing page ${assetId}`,
      model: SITE_CHECKER,
    });
  }
}
