import { Injectable } from '@nestjs/common';
import { AssetsService } from '../../assets/assets.service';
import {
  ICON_STYLES,
  IconSetInputDto,
  type IconStyle,
} from '../../icons/dto/icon-set-input.dto';
import {
  colorsFromPrompt,
  NEUTRAL_ICON_COLORS,
  type IconColors,
} from '../../icons/icon-colors';
import {
  ICON_ANSWER_MAX_TOKENS,
  iconImagePrompt,
  iconMessages,
  svgOfAnswer,
  unsafeIconError,
} from '../../icons/icon-drawing';
import {
  ICON_GRID,
  ICON_SVG_LIMITS,
  restyleIcon,
} from '../../icons/icon-style';
import { LUCIDE_MODEL, lucideIcon } from '../../icons/lucide-icons';
import { LogoService } from '../../logo/logo.service';
import { sanitizeSvg } from '../../svg-safety/sanitize-svg';
import { SvgRefusedError } from '../../svg-safety/svg-refused.error';
import { TextApiClient } from '../../text-generation/text-api.client';
import { UsageService } from '../../usage/usage.service';
import { TasksRepository } from '../tasks.repository';
import { meteredCompletion } from './metered-completion';
import type { TaskKind, TaskWork } from './task-kind';
import { upstreamCallerOf } from './upstream-caller';

/** One icon as it is kept. */
interface MadeIcon {
  svg: string;
  prompt: string;
  model: string;
}

/** An icon drawn by a model, before it is made safe. */
interface DrawnIcon {
  text: string;
  prompt: string;
  model: string;
}

/**
 * `icon-set`: the DESIGN agent makes one SVG icon per name into ICONS, in
 * the brand's colours (the chosen logo's prompt colours, else a neutral
 * slate) on the 24×24 grid in one stroke style. A name Lucide has is
 * taken from it (no model call); another is drawn by IMAGE_MODEL when it
 * draws SVG, else written by the code model. Every SVG, Lucide's too, is
 * rebuilt from the allow-list; a model's that cannot be made safe fails
 * the task with invalid_answer.
 */
@Injectable()
export class IconSetTask implements TaskKind {
  readonly type = 'icon-set';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'ICONS';
  readonly input = IconSetInputDto;

  constructor(
    private readonly logo: LogoService,
    private readonly text: TextApiClient,
    private readonly usage: UsageService,
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
  ) {}

  /** A repeated name is folded into its first place; the style filled in. */
  prepare(
    _transaction: unknown,
    _projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { names, style } = input as unknown as IconSetInputDto;
    return Promise.resolve({
      names: [...new Set(names)],
      style: style ?? ICON_STYLES[0],
    });
  }

  resultsOf(input: Record<string, unknown>): number {
    return (input as { names?: unknown[] }).names?.length ?? 1;
  }

  async run(work: TaskWork): Promise<void> {
    const { names, style } = work.task.input as unknown as {
      names: string[];
      style: IconStyle;
    };
    const colors = await this.brandColors(work);
    // In the input's order: those kept by an earlier attempt are the first `done`.
    for (const name of names.slice(work.done)) {
      const icon = await this.make(name, style, colors, work);
      await work.keep({
        kind: 'icon',
        contentType: 'image/svg+xml',
        bytes: Buffer.from(icon.svg, 'utf8'),
        prompt: icon.prompt,
        model: icon.model,
        fileName: `${name}.svg`,
        size: { width: ICON_GRID, height: ICON_GRID },
      });
    }
  }

  private async make(
    name: string,
    style: IconStyle,
    colors: IconColors,
    work: TaskWork,
  ): Promise<MadeIcon> {
    const lucide = await lucideIcon(name);
    const drawn: DrawnIcon = lucide
      ? {
          text: lucide,
          prompt: `Icon "${name}" from Lucide (lucide.dev, ISC licence), restyled ${style} in ${colors.primary}`,
          model: LUCIDE_MODEL,
        }
      : await this.draw(name, style, colors, work);
    let safe: string;
    try {
      safe = sanitizeSvg(drawn.text, ICON_SVG_LIMITS).svg;
    } catch (error) {
      if (error instanceof SvgRefusedError) {
        throw unsafeIconError(name, error.message);
      }
      throw error;
    }
    const svg = restyleIcon(safe, style, colors);
    if (!svg) throw unsafeIconError(name, 'nothing drawable is left');
    return { svg, prompt: drawn.prompt, model: drawn.model };
  }

  /** A name Lucide lacks: IMAGE_MODEL when it draws SVG, else the code model. */
  private async draw(
    name: string,
    style: IconStyle,
    colors: IconColors,
    work: TaskWork,
  ): Promise<DrawnIcon> {
    if (this.logo.drawsSvg) {
      const prompt = iconImagePrompt(name, style, colors);
      const image = await this.logo.generateImage(
        prompt,
        upstreamCallerOf(work),
        'svg',
      );
      return { text: image.bytes.toString('utf8'), prompt, model: image.model };
    }
    const messages = iconMessages(name, style, colors);
    const answer = await meteredCompletion(this.usage, this.text, work, {
      purpose: 'code',
      messages,
      maxCompletionTokens: ICON_ANSWER_MAX_TOKENS,
      signal: work.signal,
      clientKey: work.clientKey,
    });
    return {
      text: svgOfAnswer(answer.content),
      prompt: messages.map((message) => message.content).join('\n\n'),
      model: answer.model,
    };
  }

  /** The chosen logo's prompt colours, else the neutral default. */
  private async brandColors(work: TaskWork): Promise<IconColors> {
    const id = await this.tasks.selectedAssetOf(work.project.id, 'LOGO');
    const logo = id ? await this.assets.record(work.project.id, id) : undefined;
    return colorsFromPrompt(logo?.prompt) ?? NEUTRAL_ICON_COLORS;
  }
}
