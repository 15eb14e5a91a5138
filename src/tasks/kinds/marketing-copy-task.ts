import { Injectable } from '@nestjs/common';
import { MarketingCopyInputDto } from '../../text-generation/dto/marketing-copy-input.dto';
import {
  MARKETING_COPY_SCHEMA,
  marketingCopyMessages,
  parseMarketingCopy,
} from '../../text-generation/marketing-copy';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';

/**
 * `marketing-copy`: the MARKETING agent (TEXT_PROVIDER) writes a tagline,
 * a description and three posts into MARKETING, kept as JSON once checked.
 */
@Injectable()
export class MarketingCopyTask implements TaskKind {
  readonly type = 'marketing-copy';
  readonly agentType = 'MARKETING';
  readonly sectionType = 'MARKETING';
  readonly input = MarketingCopyInputDto;

  constructor(
    private readonly text: TextApiClient,
    private readonly usage: UsageService,
  ) {}

  async run(work: TaskWork): Promise<void> {
    const messages = marketingCopyMessages(work.project, work.task.input);
    const answer = await meteredCompletion(this.usage, this.text, work, {
      purpose: 'text',
      messages,
      jsonSchema: { name: 'marketing_copy', schema: MARKETING_COPY_SCHEMA },
      maxCompletionTokens: 2000,
      signal: work.signal,
      clientKey: work.clientKey,
    });
    const copy = parseMarketingCopy(answer.content);
    await work.keep({
      kind: 'marketing-copy',
      contentType: 'application/json',
      bytes: Buffer.from(JSON.stringify(copy)),
      prompt: messages.map((message) => message.content).join('\n\n'),
      model: answer.model,
    });
  }
}
