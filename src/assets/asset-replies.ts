import { HttpStatus } from '@nestjs/common';
import type { JsonReply } from '../common/http/json-reply';
import { projectETag } from '../project-versions/project-version';
import type { AssetsChange, KeptAsset } from './kept-asset';

/** Where one asset is read (GET) and deleted (DELETE). */
export const assetLocation = ({ asset }: KeptAsset): string =>
  `/api/projects/${encodeURIComponent(asset.projectId)}/assets/${encodeURIComponent(asset.id)}`;

/**
 * 201 with the asset, its Location and the project's new ETag (keeping a
 * logo changes the project, as deleting one does), also the answer an
 * Idempotency-Key stores (so a replay is the same answer).
 */
export const keptAssetReply = (
  kept: KeptAsset,
  change: AssetsChange,
): JsonReply => ({
  status: HttpStatus.CREATED,
  headers: {
    Location: assetLocation(kept),
    ETag: projectETag(change.version),
  },
  body: JSON.stringify(kept),
});

/** 200 with one asset. */
export const assetReply = (kept: KeptAsset): JsonReply => ({
  status: HttpStatus.OK,
  headers: {},
  body: JSON.stringify(kept),
});

/** 200 {success:true}, as a project's delete, with the project's new ETag. */
export const deletedAssetReply = (change: AssetsChange): JsonReply => ({
  status: HttpStatus.OK,
  headers: { ETag: projectETag(change.version) },
  body: JSON.stringify({ success: true }),
});
