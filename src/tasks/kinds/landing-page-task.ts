import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../../assets/assets.service';
import { LandingPageInputDto } from '../../text-generation/dto/landing-page-input.dto';
import {
  landingPageMessages,
  parseLandingPage,
} from '../../text-generation/landing-page';
import {
  parseMarketingCopy,
  type MarketingCopy,
} from '../../text-generation/marketing-copy';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import { TasksRepository } from '../tasks.repository';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';

/** A chosen logo larger than this is shown as text rather than inlined. */
const LOGO_INLINE_MAX_BYTES = 2 * 1024 * 1024;
/** Marketing copy is a few kilobytes. */
const COPY_MAX_BYTES = 64 * 1024;

/**
 * `landing-page`: the CODE agent (CODE_PROVIDER) writes one
 * self-contained HTML page into CODE from the project's name and
 * description, its latest marketing copy and its chosen logo (inlined as
 * a data URL after the page is written). Served sandboxed.
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
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
    private readonly usage: UsageService,
  ) {}

  async run(work: TaskWork): Promise<void> {
    const copy = await this.latestCopy(work);
    const logo = await this.chosenLogo(work);
    const messages = landingPageMessages(
      work.project,
      copy,
      logo !== undefined,
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

  private async latestCopy(work: TaskWork): Promise<MarketingCopy | undefined> {
    const id = await this.tasks.newestAssetOf(
      work.project.id,
      'marketing-copy',
    );
    const content = id && (await this.read(work, id, COPY_MAX_BYTES));
    return content
      ? parseMarketingCopy(content.bytes.toString('utf8'))
      : undefined;
  }

  /** The LOGO section's chosen asset, as a data URL. */
  private async chosenLogo(work: TaskWork): Promise<string | undefined> {
    const id = await this.tasks.selectedAssetOf(work.project.id, 'LOGO');
    const content = id && (await this.read(work, id, LOGO_INLINE_MAX_BYTES));
    if (!content || !content.contentType.startsWith('image/')) return undefined;
    return `data:${content.contentType};base64,${content.bytes.toString('base64')}`;
  }

  private async read(
    work: TaskWork,
    assetId: string,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string } | undefined> {
    const asset = await this.assets.record(work.project.id, assetId);
    if (!asset || asset.byteSize > maxBytes) return undefined;
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      work.signal,
    );
    return body
      ? { bytes: await readAll(body), contentType: asset.contentType }
      : undefined;
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
