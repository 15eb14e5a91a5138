import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../../assets/assets.service';
import type { AssetRecord } from '../../assets/dto/asset.dto';
import { RASTER_TYPES } from '../../assets/renditions/asset-renditions';
import { coloursOf } from '../../brand/prompt-colours';
import { brandColours, DEFAULT_COLOURS } from '../../graphics/brand-colours';
import { GraphicsInputDto } from '../../graphics/dto/graphics-input.dto';
import {
  GRAPHIC_SIZES,
  graphicFileName,
  SOCIAL_FORMATS,
  type GraphicFormat,
} from '../../graphics/graphic-formats';
import { coverPngOf, logoPngOf } from '../../graphics/graphic-images';
import { graphicSvg, layoutOf } from '../../graphics/graphic-layout';
import {
  renderSvgToPng,
  RENDERER,
  stopGraphicRenderer,
} from '../../graphics/graphic-renderer';
import { heroPrompt } from '../../graphics/hero-prompt';
import { sniffImageType } from '../../image-store/image-type';
import { logoConfig } from '../../logo/logo.config';
import { LogoService } from '../../logo/logo.service';
import { capabilitiesOf } from '../../logo/providers/model-capabilities';
import { drawSizeFor } from '../../logo/providers/flexible-size';
import { parseMarketingCopy } from '../../text-generation/marketing-copy';
import { TasksRepository } from '../tasks.repository';
import type { TaskKind, TaskWork } from './task-kind';
import { upstreamCallerOf } from './upstream-caller';
import { waitInLine } from './wait-in-line';

/** Marketing copy is a few kilobytes. */
const COPY_MAX_BYTES = 64 * 1024;

/** What every graphic of a task is made of. */
interface Brand {
  headline: string;
  /** The project's name: a wordmark's initials. */
  wordmark: string;
  colours: string[];
  /** The chosen logo, a raster image kept in LOGO; absent: a wordmark. */
  logo?: { id: string; bytes: Buffer };
}

/**
 * `graphics`: the DESIGN agent makes social graphics (and a hero banner
 * when asked) into GRAPHICS, one PNG asset of kind `graphic` a format at
 * its exact size. The social ones are composed without any model: the
 * chosen logo (else a wordmark of the project's initials), the logo's
 * prompt colours and the headline (the input's, else the latest marketing
 * copy's tagline, else the project's name), laid out as SVG and drawn by
 * resvg. The hero's background alone is drawn by the image model, with
 * neither words nor logo, and the same layout is placed on it.
 */
@Injectable()
export class GraphicsTask implements TaskKind, OnApplicationShutdown {
  readonly type = 'graphics';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'GRAPHICS';
  readonly input = GraphicsInputDto;
  private readonly model: string;

  constructor(
    private readonly logo: LogoService,
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.model = config.imageApi.model;
  }

  /** The renderer's worker thread goes with the application. */
  onApplicationShutdown(): Promise<void> {
    return stopGraphicRenderer();
  }

  prepare(
    _transaction: unknown,
    _projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { formats, headline } = input as GraphicsInputDto;
    return Promise.resolve({
      formats: formats ?? [...SOCIAL_FORMATS],
      ...(headline === undefined ? {} : { headline }),
    });
  }

  resultsOf(input: Record<string, unknown>): number {
    return formatsOf(input).length;
  }

  async run(work: TaskWork): Promise<void> {
    const input = work.task.input as GraphicsInputDto;
    const brand = await this.brand(work, input.headline);
    // In the input's order: those kept by an earlier attempt are the first `done`.
    for (const format of formatsOf(work.task.input).slice(work.done)) {
      work.signal.throwIfAborted();
      const made =
        format === 'hero'
          ? await this.hero(work, brand)
          : {
              png: await this.compose(format, brand, work.signal),
              prompt: compositionOf(format, brand),
              model: RENDERER,
            };
      await work.keep({
        kind: 'graphic',
        contentType: 'image/png',
        bytes: made.png,
        prompt: made.prompt,
        model: made.model,
        fileName: graphicFileName(format),
      });
    }
  }

  /** The layout of `format` on the brand (and a background), drawn. */
  private async compose(
    format: GraphicFormat,
    brand: Brand,
    signal: AbortSignal,
    backgroundPng?: Buffer,
  ): Promise<Buffer> {
    const { width, height } = GRAPHIC_SIZES[format];
    const side = layoutOf(width, height).logo.width;
    const logoPng = brand.logo && (await logoPngOf(brand.logo.bytes, side));
    const svg = graphicSvg({
      width,
      height,
      colours: brandColours(brand.colours),
      headline: brand.headline,
      wordmark: brand.wordmark,
      logoPng,
      backgroundPng,
    });
    return renderSvgToPng(svg, signal);
  }

  /**
   * The hero: a background drawn by the image model at a size it takes
   * (through the edit endpoint from the chosen logo when the model edits,
   * else generated), cropped to 1920×1080, the layout placed on it.
   */
  private async hero(
    work: TaskWork,
    brand: Brand,
  ): Promise<{ png: Buffer; prompt: string; model: string }> {
    const { width, height } = GRAPHIC_SIZES.hero;
    const capabilities = capabilitiesOf(this.model);
    const source = brand.logo && capabilities.edits ? brand.logo : undefined;
    const prompt = heroPrompt(brand.colours, source !== undefined);
    const caller = upstreamCallerOf(work);
    const picture = await waitInLine(work.signal, () => {
      if (!source) return this.logo.generateImage(prompt, caller, 'png');
      const type = sniffImageType(source.bytes)!;
      return this.logo.editImage(
        { bytes: source.bytes, type },
        prompt,
        caller,
        drawSizeFor(capabilities, width, height),
      );
    });
    const background = await coverPngOf(picture.bytes, width, height);
    return {
      png: await this.compose('hero', brand, work.signal, background),
      prompt: `${prompt}\n\n${compositionOf('hero', brand)}`,
      model: `${picture.model} + ${RENDERER}`,
    };
  }

  /** The headline, colours and logo every graphic of the task shares. */
  private async brand(work: TaskWork, headline?: string): Promise<Brand> {
    const logo = await this.chosenLogo(work);
    const colours = logo ? coloursOf(logo.record.prompt) : [];
    return {
      headline:
        headline ?? (await this.latestTagline(work)) ?? work.project.name,
      wordmark: work.project.name,
      colours: colours.length > 0 ? colours : [...DEFAULT_COLOURS],
      logo: logo && { id: logo.record.id, bytes: logo.bytes },
    };
  }

  /** The LOGO section's chosen logo when it is a raster image. */
  private async chosenLogo(
    work: TaskWork,
  ): Promise<{ record: AssetRecord; bytes: Buffer } | undefined> {
    const id = await this.tasks.selectedAssetOf(work.project.id, 'LOGO');
    const record = id && (await this.assets.record(work.project.id, id));
    if (!record || record.kind !== 'logo') return undefined;
    if (!RASTER_TYPES.has(record.contentType)) return undefined;
    const bytes = await this.read(work, record);
    return bytes && sniffImageType(bytes) ? { record, bytes } : undefined;
  }

  private async latestTagline(work: TaskWork): Promise<string | undefined> {
    const id = await this.tasks.newestAssetOf(
      work.project.id,
      'marketing-copy',
    );
    const record = id && (await this.assets.record(work.project.id, id));
    if (!record || record.byteSize > COPY_MAX_BYTES) return undefined;
    const bytes = await this.read(work, record);
    if (!bytes) return undefined;
    try {
      return parseMarketingCopy(bytes.toString('utf8')).tagline;
    } catch {
      // Copy kept by an older rule that no longer parses: the name instead.
      return undefined;
    }
  }

  private async read(
    work: TaskWork,
    asset: AssetRecord,
  ): Promise<Buffer | undefined> {
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      work.signal,
    );
    return body ? readAll(body) : undefined;
  }
}

/** The formats of a prepared input (an input stored before defaults: the social set). */
function formatsOf(input: Record<string, unknown>): GraphicFormat[] {
  const formats = (input as GraphicsInputDto).formats;
  return formats && formats.length > 0 ? formats : [...SOCIAL_FORMATS];
}

/** What a composed graphic is made of, as its asset's prompt tells it. */
function compositionOf(format: GraphicFormat, brand: Brand): string {
  const { width, height } = GRAPHIC_SIZES[format];
  return [
    `${graphicFileName(format)} ${width}x${height}`,
    `headline: ${JSON.stringify(brand.headline)}`,
    brand.logo
      ? `logo: ${brand.logo.id}`
      : `wordmark: ${JSON.stringify(brand.wordmark)}`,
    `colors: ${brand.colours.join(', ')}`,
  ].join('\n');
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
