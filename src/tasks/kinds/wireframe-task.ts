import { Injectable } from '@nestjs/common';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import {
  DEFAULT_WIREFRAME_PAGES,
  WireframeInputDto,
} from '../../wireframes/dto/wireframe-input.dto';
import { parseWireframe } from '../../wireframes/wireframe';
import { wireframeMessages } from '../../wireframes/wireframe-messages';
import { wireframeSchema } from '../../wireframes/wireframe-schema';
import { KeptContent } from './kept-content';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';

/**
 * `wireframe`: the CODE agent (CODE_PROVIDER) plans the pages asked for,
 * section by section, under a strict JSON schema, from the project's
 * name and description, its latest marketing copy and the notes; kept in
 * WIREFRAME as JSON once checked. Its thumbnail is a preview the service
 * draws from it (assets/renditions).
 */
@Injectable()
export class WireframeTask implements TaskKind {
  readonly type = 'wireframe';
  readonly agentType = 'CODE';
  readonly sectionType = 'WIREFRAME';
  readonly input = WireframeInputDto;

  constructor(
    private readonly text: TextApiClient,
    private readonly kept: KeptContent,
    private readonly usage: UsageService,
  ) {}

  prepare(
    _transaction: unknown,
    _projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return Promise.resolve({
      ...input,
      pages: input.pages ?? DEFAULT_WIREFRAME_PAGES,
    });
  }

  async run(work: TaskWork): Promise<void> {
    const input = work.task.input as { pages?: string[]; notes?: string };
    const pages = input.pages ?? DEFAULT_WIREFRAME_PAGES;
    const copy = await this.kept.latestCopy(work);
    const messages = wireframeMessages(work.project, copy, {
      pages,
      notes: input.notes,
    });
    const answer = await meteredCompletion(this.usage, this.text, work, {
      purpose: 'code',
      messages,
      jsonSchema: { name: 'wireframe', schema: wireframeSchema(pages) },
      maxCompletionTokens: 8000,
      signal: work.signal,
      clientKey: work.clientKey,
    });
    const wireframe = parseWireframe(answer.content, pages);
    await work.keep({
      kind: 'wireframe',
      contentType: 'application/json',
      bytes: Buffer.from(JSON.stringify(wireframe)),
      fileName: 'wireframe.json',
      prompt: messages.map((message) => message.content).join('\n\n'),
      model: answer.model,
    });
  }
}
