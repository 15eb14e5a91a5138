import { Injectable } from '@nestjs/common';
import { AssetsService } from '../../assets/assets.service';
import { InputValidationException } from '../../failures/input-validation.error';
import { PageGoneError } from '../../site-check/page-gone.error';
import { readSiteReport } from '../../site-check/site-report';
import { LandingPageInputDto } from '../../text-generation/dto/landing-page-input.dto';
import {
  LANDING_PAGE_MAX_BYTES,
  landingPageMessages,
  LOGO_PLACEHOLDER,
  parseLandingPage,
} from '../../text-generation/landing-page';
import {
  FIX_PAGE_MAX_BYTES,
  landingPageFixMessages,
} from '../../text-generation/landing-page-fix';
import type { ChatMessage } from '../../text-generation/text-api.client';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import { TasksRepository } from '../tasks.repository';
import { wireframeOutline } from '../../wireframes/wireframe-outline';
import { KeptContent } from './kept-content';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';

/** A chosen logo larger than this is shown as text rather than inlined. */
const LOGO_INLINE_MAX_BYTES = 2 * 1024 * 1024;
/** A site report lists at most 200 findings: well under this. */
const REPORT_MAX_BYTES = 1024 * 1024;

/** What the code model is sent, and the prompt the kept page tells. */
interface PageRequest {
  messages: ChatMessage[];
  prompt: string;
}

const promptOf = (messages: ChatMessage[]): string =>
  messages.map((message) => message.content).join('\n\n');

/**
 * `landing-page`: the CODE agent (CODE_PROVIDER) writes one
 * self-contained HTML page into CODE from the project's name and
 * description, its latest marketing copy, its chosen wireframe (its
 * sections, in order, when WIREFRAME has a chosen result) and its chosen
 * logo (inlined as a data URL after the page is written). Served
 * sandboxed. With `fixReportId` (a site-report of the project) it writes
 * the page that report checked again: the code model is sent the page
 * and the report's errors and warnings and answers the corrected page,
 * kept as a new landing page.
 */
@Injectable()
export class LandingPageTask implements TaskKind {
  readonly type = 'landing-page';
  readonly agentType = 'CODE';
  readonly sectionType = 'CODE';
  readonly input = LandingPageInputDto;

  constructor(
    private readonly text: TextApiClient,
    private readonly tasks: TasksRepository,
    private readonly kept: KeptContent,
    private readonly usage: UsageService,
    private readonly assets: AssetsService,
  ) {}

  async accept(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<void> {
    const { fixReportId } = input as LandingPageInputDto;
    if (fixReportId === undefined) return;
    const report = await this.assets.record(projectId, fixReportId, owner);
    if (!report || report.kind !== 'site-report') {
      throw new InputValidationException([
        {
          path: ['input', 'fixReportId'],
          message: 'Expected a site report (kind site-report) of this project',
          code: 'custom',
        },
      ]);
    }
  }

  async run(work: TaskWork): Promise<void> {
    const { fixReportId } = work.task.input as LandingPageInputDto;
    const logo = await this.chosenLogo(work);
    const { messages, prompt } = fixReportId
      ? await this.fixRequest(work, fixReportId, logo)
      : await this.pageRequest(work, logo);
    const answer = await meteredCompletion(this.usage, this.text, work, {
      purpose: 'code',
      messages,
      maxCompletionTokens: 16_000,
      signal: work.signal,
      clientKey: work.clientKey,
    });
    const html = parseLandingPage(answer.content, logo);
    await work.keep({
      kind: 'landing-page',
      contentType: 'text/html',
      bytes: Buffer.from(html),
      prompt,
      model: answer.model,
    });
  }

  private async pageRequest(
    work: TaskWork,
    logo: string | undefined,
  ): Promise<PageRequest> {
    const copy = await this.kept.latestCopy(work);
    const wireframe = await this.kept.chosenWireframe(work);
    const messages = landingPageMessages(
      work.project,
      copy,
      logo !== undefined,
      wireframe && wireframeOutline(wireframe),
    );
    return { messages, prompt: promptOf(messages) };
  }

  /**
   * The request to correct the page a site report checked: the page with
   * the chosen logo's data URL put back as its placeholder (so it is not
   * sent, and is inlined again in the answer), at most FIX_PAGE_MAX_BYTES.
   * The kept prompt names the page rather than holding it again.
   */
  private async fixRequest(
    work: TaskWork,
    reportId: string,
    logo: string | undefined,
  ): Promise<PageRequest> {
    const kept = await this.kept.read(work, reportId, REPORT_MAX_BYTES);
    const report =
      kept?.kind === 'site-report' ? readSiteReport(kept.bytes) : undefined;
    if (!report) {
      throw new PageGoneError(
        'The site report to fix from is no longer kept in this project',
      );
    }
    const page = await this.kept.read(
      work,
      report.assetId,
      LANDING_PAGE_MAX_BYTES,
    );
    if (!page || page.kind !== 'landing-page') {
      throw new PageGoneError(
        'The page the site report checked is no longer kept in this project',
      );
    }
    let html = page.bytes.toString('utf8');
    if (logo) html = html.split(logo).join(LOGO_PLACEHOLDER);
    if (Buffer.byteLength(html) > FIX_PAGE_MAX_BYTES) {
      throw new PageGoneError(
        'The page the site report checked is over 256 KB without its logo: too large to send to the code model',
      );
    }
    const messages = landingPageFixMessages(
      work.project,
      html,
      report.findings,
      logo !== undefined,
    );
    const [system, user] = messages.map((message) => message.content);
    return {
      messages,
      prompt: promptOf([
        { role: 'system', content: system },
        {
          role: 'user',
          content: `${user.slice(0, user.lastIndexOf('The page:'))}The page: landing page ${report.assetId} (${Buffer.byteLength(html)} bytes), checked by site report ${reportId}`,
        },
      ]),
    };
  }

  /** The LOGO section's chosen asset, as a data URL. */
  private async chosenLogo(work: TaskWork): Promise<string | undefined> {
    const id = await this.tasks.selectedAssetOf(work.project.id, 'LOGO');
    const content =
      id && (await this.kept.read(work, id, LOGO_INLINE_MAX_BYTES));
    if (!content || !content.contentType.startsWith('image/')) return undefined;
    return `data:${content.contentType};base64,${content.bytes.toString('base64')}`;
  }
}
