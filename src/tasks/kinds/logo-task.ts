import { Injectable } from '@nestjs/common';
import { buildLogoPrompt } from '../../logo/logo-prompt';
import { LogoService } from '../../logo/logo.service';
import { LogoTaskInputDto } from '../dto/logo-task-input.dto';
import type { TaskKind, TaskWork } from './task-kind';
import { upstreamCallerOf } from './upstream-caller';
import { waitInLine } from './wait-in-line';

/** Candidates of one task drawn at once: one owner's share of the logo line is IMAGE_API_CLIENT_LIMIT (4). */
const DRAWS_AT_ONCE = 2;

/**
 * `logo`: the DESIGN agent draws `count` candidates into LOGO, each through
 * the logo pipeline (its line, rate limit, deadline and retries), two at a
 * time, each kept as soon as it is drawn. One failure starts no more
 * draws; one already under way is finished and kept (it is paid for),
 * then the task fails. The line answers an interactive request 429/503
 * at once when it is full; a task waits its turn instead (Retry-After at
 * a time, up to five minutes).
 */
@Injectable()
export class LogoTask implements TaskKind {
  readonly type = 'logo';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'LOGO';
  readonly input = LogoTaskInputDto;

  constructor(private readonly logo: LogoService) {}

  resultsOf(input: Record<string, unknown>): number {
    return (input as { count?: number }).count ?? 1;
  }

  async run(work: TaskWork): Promise<void> {
    const input = work.task.input as unknown as LogoTaskInputDto;
    const prompt = buildLogoPrompt(input);
    const caller = upstreamCallerOf(work);
    // Those kept by an earlier attempt are not drawn again.
    let left = this.resultsOf(work.task.input) - work.done;
    // The first failure, which the task fails with.
    let failure: { error: unknown } | undefined;
    const drawer = async () => {
      while (!failure && left > 0) {
        left--;
        try {
          const image = await waitInLine(work.signal, () =>
            this.logo.generateImage(prompt, caller, input.format),
          );
          await work.keep({
            kind: 'logo',
            contentType: image.type.mediaType,
            bytes: image.bytes,
            prompt: image.prompt,
            model: image.model,
          });
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: DRAWS_AT_ONCE }, () => drawer()));
    if (failure) throw failure.error;
  }
}
