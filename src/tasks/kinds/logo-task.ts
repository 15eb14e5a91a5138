import { Injectable } from '@nestjs/common';
import type { ProducedAsset } from '../../assets/assets.service';
import { buildLogoPrompt } from '../../logo/logo-prompt';
import { LogoService, type LogoCaller } from '../../logo/logo.service';
import { LogoTaskInputDto } from '../dto/logo-task-input.dto';
import type { TaskKind, TaskWork } from './task-kind';

/**
 * `logo`: the DESIGN agent draws `count` candidates into LOGO, each through
 * the logo pipeline (its line, rate limit, deadline and retries), all at
 * once; one failure stops the others.
 */
@Injectable()
export class LogoTask implements TaskKind {
  readonly type = 'logo';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'LOGO';
  readonly input = LogoTaskInputDto;

  constructor(private readonly logo: LogoService) {}

  async run(work: TaskWork): Promise<ProducedAsset[]> {
    const input = work.task.input as unknown as LogoTaskInputDto;
    const prompt = buildLogoPrompt(input);
    const stop = new AbortController();
    const caller: LogoCaller = {
      clientKey: work.clientKey,
      address: 'task',
      signal: AbortSignal.any([work.signal, stop.signal]),
      baseUrl: () => '',
      addLogFields: () => undefined,
    };
    const draws = Array.from({ length: input.count ?? 1 }, () =>
      this.logo.generateImage(prompt, caller).catch((error: unknown) => {
        stop.abort(error);
        throw error;
      }),
    );
    const images = await Promise.all(draws);
    return images.map((image) => ({
      kind: 'logo',
      contentType: image.type.mediaType,
      bytes: image.bytes,
      prompt: image.prompt,
      model: image.model,
    }));
  }
}
