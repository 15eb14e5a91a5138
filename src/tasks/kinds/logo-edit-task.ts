import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../../assets/assets.service';
import type { AssetRecord } from '../../assets/dto/asset.dto';
import { InputValidationException } from '../../failures/input-validation.error';
import { sniffImageType } from '../../image-store/image-type';
import type { EditSource } from '../../logo/image-edits.client';
import { buildLogoEditPrompt } from '../../logo/logo-edit-prompt';
import { LogoService } from '../../logo/logo.service';
import { LogoEditInputDto } from '../dto/logo-edit-input.dto';
import { LogoEditSourceError } from './logo-edit-source.error';
import type { TaskKind, TaskWork } from './task-kind';
import { upstreamCallerOf } from './upstream-caller';
import { waitInLine } from './wait-in-line';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/**
 * `logo-edit`: the DESIGN agent draws `count` variations of a kept logo
 * into LOGO by the provider's edit endpoint (the logo sent as the image,
 * the instructions as the prompt), one call a variation, one after the
 * other, through the logo pipeline, each kept as it is drawn; one failure
 * stops the task (the variations kept stay). The
 * logo must be a kept image logo of the project when the task is created
 * (400 otherwise); if it is deleted before the task runs, the task fails
 * `source_missing`.
 */
@Injectable()
export class LogoEditTask implements TaskKind {
  readonly type = 'logo-edit';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'LOGO';
  readonly input = LogoEditInputDto;

  constructor(
    private readonly logo: LogoService,
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
  ) {}

  async accept(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<void> {
    const { assetId } = input as unknown as LogoEditInputDto;
    const asset = await this.assets.record(projectId, assetId, owner);
    if (!asset || !isImageLogo(asset)) {
      throw new InputValidationException([
        {
          path: ['input', 'assetId'],
          message: 'Expected a kept logo (PNG, JPEG or WebP) of this project',
          code: 'custom',
        },
      ]);
    }
  }

  resultsOf(input: Record<string, unknown>): number {
    return (input as { count?: number }).count ?? 1;
  }

  async run(work: TaskWork): Promise<void> {
    const input = work.task.input as unknown as LogoEditInputDto;
    const source = await this.source(work, input.assetId);
    const prompt = buildLogoEditPrompt(input.instructions);
    const caller = upstreamCallerOf(work);
    // Each variation kept as it is drawn; those kept by an earlier attempt
    // are not drawn again.
    for (
      let index = work.done;
      index < this.resultsOf(work.task.input);
      index++
    ) {
      const image = await waitInLine(work.signal, () =>
        this.logo.editImage(source, prompt, caller),
      );
      await work.keep({
        kind: 'logo',
        contentType: image.type.mediaType,
        bytes: image.bytes,
        prompt: image.prompt,
        model: image.model,
      });
    }
  }

  /** The kept logo's bytes, checked to be the image they say they are. */
  private async source(work: TaskWork, assetId: string): Promise<EditSource> {
    const asset = await this.assets.record(work.project.id, assetId);
    if (!asset || !isImageLogo(asset)) throw new LogoEditSourceError();
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      work.signal,
    );
    if (!body) throw new LogoEditSourceError();
    const bytes = await readAll(body);
    const type = sniffImageType(bytes);
    if (!type) throw new LogoEditSourceError();
    return { bytes, type };
  }
}

const isImageLogo = (asset: AssetRecord): boolean =>
  asset.kind === 'logo' && IMAGE_TYPES.has(asset.contentType);

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
