import { Injectable } from '@nestjs/common';
import { AssetRenditions } from '../../assets/renditions/asset-renditions';
import { AssetsService } from '../../assets/assets.service';
import { sharpModule } from '../../assets/renditions/sharp-module';
import {
  BRAND_KIT_FILES,
  backgroundFrom,
  makeBrandKit,
} from '../../brand-kit/brand-kit-images';
import { BrandKitService } from '../../brand-kit/brand-kit.service';
import {
  kitFilePrompt,
  kitFilePromptStart,
} from '../../brand-kit/kit-file-prompt';
import {
  NoChosenLogoException,
  NotALogoException,
} from '../../brand-kit/brand-kit.errors';
import { BrandKitInputDto } from '../../brand-kit/dto/brand-kit-input.dto';
import { LogoGoneError } from '../../brand-kit/logo-gone.error';
import type { Transaction } from '../../database/database.service';
import type { TaskKind, TaskWork } from './task-kind';

/** What made a kit's files: no model, the image library. */
const model = () => `sharp ${sharpModule().versions.sharp}`;

/**
 * `brand-kit`: the DESIGN agent makes, from a logo (the LOGO section's
 * chosen one by default) and without calling any model, favicon.ico,
 * touch and PWA icons, a social image and mono and inverse logos, kept
 * as `brand-kit` assets of ICONS (they are the site's icons) whose
 * prompt names the file. Each file
 * replaces the project's earlier file of its name: a project holds one
 * kit's files (BRAND_KIT_FILES, 8), which ASSET_MAX_PER_PROJECT does not
 * count.
 */
@Injectable()
export class BrandKitTask implements TaskKind {
  readonly type = 'brand-kit';
  readonly agentType = 'DESIGN';
  readonly sectionType = 'ICONS';
  readonly input = BrandKitInputDto;

  constructor(
    private readonly kits: BrandKitService,
    private readonly assets: AssetsService,
    private readonly renditions: AssetRenditions,
  ) {}

  async prepare(
    transaction: Transaction,
    projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const { assetId, backgroundColor } = input as BrandKitInputDto;
    const { logoId, source: logo } = await this.kits.kitSource(
      transaction,
      projectId,
      assetId,
    );
    if (!logoId) throw new NoChosenLogoException();
    if (!logo) throw new NotALogoException();
    return {
      assetId: logo.id,
      backgroundColor: backgroundColor ?? backgroundFrom(logo.prompt),
    };
  }

  readonly derived = true;

  resultsOf(): number {
    return BRAND_KIT_FILES.length;
  }

  async run(work: TaskWork): Promise<void> {
    const { assetId, backgroundColor } = work.task
      .input as Required<BrandKitInputDto>;
    const logo = await this.assets.record(work.project.id, assetId);
    if (!logo) throw new LogoGoneError();
    const bytes = await this.renditions.readWhole(logo, work.signal);
    const files = await makeBrandKit(bytes, backgroundColor);
    // In BRAND_KIT_FILES' order: those kept by an earlier attempt are the
    // first `done`. Each replaces the project's file of its name.
    for (const file of files.slice(work.done)) {
      await work.keep({
        kind: 'brand-kit',
        contentType: file.contentType,
        bytes: file.bytes,
        prompt: kitFilePrompt(file.name, logo.id),
        model: model(),
        replaces: kitFilePromptStart(file.name),
        fileName: file.name,
      });
    }
  }
}
