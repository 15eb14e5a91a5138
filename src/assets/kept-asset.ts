import type { AssetDto } from './dto/asset.dto';

/** A kept logo as its routes answer it: the asset, its url made. */
export interface KeptAsset {
  asset: AssetDto;
}

/** What a change to a project's assets leaves: the project's new version. */
export interface AssetsChange {
  version: number;
}
