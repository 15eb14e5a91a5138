import { Injectable } from '@nestjs/common';
import { LandingPageInputDto } from '../../text-generation/dto/landing-page-input.dto';
import {
  landingPageMessages,
  parseLandingPage,
} from '../../text-generation/landing-page';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import { TasksRepository } from '../tasks.repository';
import { wireframeOutline } from '../../wireframes/wireframe-outline';
import { KeptContent } from './kept-content';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';

/** A chosen logo larger than this is shown as text rather than inlined. */
const LOGO_INLINE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * `landing-page`: the CODE agent (CODE_PROVIDER) writes one
 * self-contained HTML page into CODE from the project's name and
 * description, its latest marketing copy, its chosen wireframe (its
 * sections, in order, when WIREFRAME has a chosen result) and its chosen
 * logo (inlined as a data URL after the page is written). Served
 * sandboxed.
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
  ) {}

  async run(work: TaskWork): Promise<void> {
    const copy = await this.kept.latestCopy(work);
    const wireframe = await this.kept.chosenWireframe(work);
    const logo = await this.chosenLogo(work);
    const messages = landingPageMessages(
      work.project,
      copy,
      logo !== undefined,
      wireframe && wireframeOutline(wireframe),
    );
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
      prompt: messages.map((message) => message.content).join('\n\n'),
      model: answer.model,
    });
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
