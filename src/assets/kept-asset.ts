import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import type { LogoImage } from '../logo/generated-logo';
import type { LogoFormat } from '../logo/logo.constants';
import type { UpstreamBudget } from '../logo/upstream-budget';
import type { AssetDto } from './dto/asset.dto';

/** A kept logo as its routes answer it: the asset, its url made. */
export interface KeptAsset {
  asset: AssetDto;
}

/** What a change to a project's assets leaves: the project's new version. */
export interface AssetsChange {
  version: number;
}

/** A logo kept by POST /api/projects/{id}/logos: the asset and the change. */
export interface KeptLogo {
  kept: KeptAsset;
  change: AssetsChange;
}

/** A team's own image, its type told and its rules checked. */
export interface UploadedSource {
  uploaded: LogoImage;
  /** The name it was sent with, made safe when the asset is stored. */
  sentName: string | undefined;
}

/** POST /api/projects/{id}/logos as its steps read it, made once. */
export interface KeepLogoCommand {
  projectId: string;
  /**
   * What is kept: a logo generated for buildLogoPrompt's prompt (given to
   * the image model, stored with the asset), the hosted logo a user
   * previewed (its file name under /api/ai/logos), as it is, or an image
   * the team uploaded.
   */
  source:
    | { prompt: string; format: LogoFormat }
    | { previewedFile: string }
    | UploadedSource;
  caller: UpstreamBudget;
  /** The origin the asset's url is made with. */
  baseUrl: string;
  /** Only a project of this user (a proven caller's own). */
  owner?: string;
  key?: IdempotentRequest<KeptLogo>;
}
