import { setTimeout as delay } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { RetryLaterError } from '../../failures/retry-later.error';
import { BudgetExceededError } from '../../usage/budget-exceeded.error';
import type { LogoImage } from '../../logo/generated-logo';
import type { LogoFormat } from '../../logo/logo.constants';
import { buildLogoPrompt } from '../../logo/logo-prompt';
import { LogoService } from '../../logo/logo.service';
import type { UpstreamBudget } from '../../logo/upstream-budget';
import { LogoTaskInputDto } from '../dto/logo-task-input.dto';
import type { TaskKind, TaskWork } from './task-kind';

/** Candidates of one task drawn at once: one owner's share of the logo line is IMAGE_API_CLIENT_LIMIT (4). */
const DRAWS_AT_ONCE = 2;
/** How long a task waits, in all, for its turn in the logo line before it fails busy. */
const TURN_WAIT_MS = 5 * 60_000;

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
    const caller: UpstreamBudget = {
      clientKey: work.clientKey,
      usage: {
        userKey: work.clientKey,
        projectId: work.project.id,
        taskId: work.task.id,
      },
      // The owner is the client and its own address: tasks of different
      // users never share an address's share of the line.
      address: work.clientKey,
      signal: work.signal,
    };
    // Those kept by an earlier attempt are not drawn again.
    let left = this.resultsOf(work.task.input) - work.done;
    // The first failure, which the task fails with.
    let failure: { error: unknown } | undefined;
    const drawer = async () => {
      while (!failure && left > 0) {
        left--;
        try {
          const image = await this.draw(prompt, caller, input.format);
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

  /** One image, waiting for a turn in the line when it is full. */
  private async draw(
    prompt: string,
    caller: UpstreamBudget,
    format: LogoFormat | undefined,
  ): Promise<LogoImage> {
    const giveUpAt = Date.now() + TURN_WAIT_MS;
    for (;;) {
      try {
        return await this.logo.generateImage(prompt, caller, format);
      } catch (error) {
        // Over a spend budget: no turn in the line comes before the day turns.
        if (
          !(error instanceof RetryLaterError) ||
          error instanceof BudgetExceededError ||
          Date.now() > giveUpAt
        ) {
          throw error;
        }
        await delay(Math.max(1, error.retryAfterSeconds) * 1000, undefined, {
          signal: caller.signal,
        });
      }
    }
  }
}
