import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import { projectETag } from '../project-scope/project-version';
import type { AssetsChange, KeptAsset, KeptLogo } from './kept-asset';

/** Where one asset is read (GET) and deleted (DELETE). */
export const assetLocation = ({ asset }: KeptAsset): string =>
  `/api/projects/${encodeURIComponent(asset.projectId)}/assets/${encodeURIComponent(asset.id)}`;

/**
 * 201 with the asset, its Location and the project's new ETag (keeping a
 * logo changes the project, as deleting one does), also the answer an
 * Idempotency-Key stores (so a replay is the same answer).
 */
export const keptLogoReply = ({ kept, change }: KeptLogo): Reply =>
  new Reply(
    HttpStatus.CREATED,
    {
      Location: assetLocation(kept),
      ETag: projectETag(change.version),
    },
    JSON.stringify(kept),
  );

/** 200 with one asset. */
export const assetReply = (kept: KeptAsset): Reply =>
  new Reply(HttpStatus.OK, {}, JSON.stringify(kept));

/** 200 {success:true}, as a project's delete, with the project's new ETag. */
export const deletedAssetReply = (change: AssetsChange): Reply =>
  new Reply(
    HttpStatus.OK,
    { ETag: projectETag(change.version) },
    JSON.stringify({ success: true }),
  );
