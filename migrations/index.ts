import { InitialSchema1763780000000 } from './1763780000000-initial-schema';
import { ChildOrderIndexes1763790000000 } from './1763790000000-child-order-indexes';
import { VersionsAndIdempotencyKeys1764000000000 } from './1764000000000-versions-and-idempotency-keys';
import { StoredImages1764100000000 } from './1764100000000-stored-images';
import { LogoAssets1764200000000 } from './1764200000000-logo-assets';
import { AssetSlotReservations1764300000000 } from './1764300000000-asset-slot-reservations';
import { DeploymentIdentity1764310000000 } from './1764310000000-deployment-identity';
import { StoredImageParts1764320000000 } from './1764320000000-stored-image-parts';
import { RunningTasks1764400000000 } from './1764400000000-running-tasks';
import { HostedLogoOrigin1764500000000 } from './1764500000000-hosted-logo-origin';
import { AssetRenditions1764510000000 } from './1764510000000-asset-renditions';
import { TaskLeaseIndex1764520000000 } from './1764520000000-task-lease-index';
import { ChangeEvents1764530000000 } from './1764530000000-change-events';
import { RenditionLadder1764535000000 } from './1764535000000-rendition-ladder';
import { UsageLedger1764540000000 } from './1764540000000-usage-ledger';
import { TaskProgress1764550000000 } from './1764550000000-task-progress';
import { ProjectListOrders1764560000000 } from './1764560000000-project-list-orders';
import { AssetFileNamesAndSizes1764570000000 } from './1764570000000-asset-file-names-and-sizes';
import { BrandKitsInIcons1764580000000 } from './1764580000000-brand-kits-in-icons';
import { Sites1764590000000 } from './1764590000000-sites';
import { Runs1764600000000 } from './1764600000000-runs';

/**
 * Every migration, oldest first. Listed as classes rather than a file glob so
 * the same list works from TypeScript (tests) and from the build (dist/).
 */
import { TaskQueuePlace1764537000000 } from './1764537000000-task-queue-place';

export const MIGRATIONS = [
  InitialSchema1763780000000,
  ChildOrderIndexes1763790000000,
  VersionsAndIdempotencyKeys1764000000000,
  StoredImages1764100000000,
  LogoAssets1764200000000,
  AssetSlotReservations1764300000000,
  DeploymentIdentity1764310000000,
  StoredImageParts1764320000000,
  RunningTasks1764400000000,
  HostedLogoOrigin1764500000000,
  AssetRenditions1764510000000,
  TaskLeaseIndex1764520000000,
  ChangeEvents1764530000000,
  RenditionLadder1764535000000,
  TaskQueuePlace1764537000000,
  UsageLedger1764540000000,
  TaskProgress1764550000000,
  ProjectListOrders1764560000000,
  AssetFileNamesAndSizes1764570000000,
  BrandKitsInIcons1764580000000,
  Sites1764590000000,
  Runs1764600000000,
];
