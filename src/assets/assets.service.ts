import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from '../logo/logo.config';
import {
  assetsConfig,
  type AssetsConfig,
  type UploadLimits,
} from './assets.config';
import { sanitizeSvg } from '../svg-safety/sanitize-svg';
import { sniffImageType, SVG_TYPE } from '../image-store/image-type';
import { isWithinPixelLimit } from '../image-store/image-dimensions';
import { defaultFileName, uploadedFileName } from './asset-file-names';
import { sizeOfImage } from './asset-sizes';
import { UploadedLogo } from './uploaded-logo';
import type { ExpectedVersions } from '../project-scope/version-conditions';
import type { CallContext } from '../common/call-context';
import { isWellFormedId, newId } from '../common/ids';
import { Database, type Transaction } from '../database/database.service';
import type {
  IdempotentKey,
  IdempotentRequest,
} from '../idempotency/idempotency-key.decorator';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { Replayed } from '../idempotency/replayed';
import { buildLogoPrompt } from '../logo/logo-prompt';
import { LogoService } from '../logo/logo.service';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import {
  ProjectScope,
  type ProjectChange,
} from '../project-scope/project-scope.repository';
import { ProjectAccess } from '../auth/project-access';
import { WorkspaceStatuses } from '../sections/workspace-statuses.repository';
import { AssetBytes, type AssetRef } from './asset-bytes/asset-bytes';
import { AssetUrls, type UrlSignature } from './asset-urls';
import {
  AssetLimitReachedException,
  AssetNotFoundException,
  AssetStorageUnavailableError,
  AssetUrlRefusedException,
  FileTooLargeException,
  PreviewedLogoNotFoundException,
  TooManyPixelsException,
  UnsupportedImageTypeException,
} from './assets.errors';
import { AssetsRepository } from './assets.repository';
import { toAssetDto, type AssetKind, type AssetRecord } from './dto/asset.dto';
import { sha256Of } from './content-hash';
import { KeepPreviewedLogoDto } from './dto/keep-previewed-logo.dto';
import type { KeepLogoBody } from './keep-logo-body.pipe';
import { InputValidationException } from '../failures/input-validation.error';
import {
  HostedLogos,
  HOSTED_LOGOS_PATH,
  hostedLogoFileOf,
} from '../logo/hosted-logos';
import type { LogoImage } from '../logo/generated-logo';
import { ParkedLogos } from './parked-logos';
import type {
  AssetsChange,
  KeepLogoCommand,
  KeptAsset,
  KeptLogo,
  UploadedSource,
} from './kept-asset';

/** Beyond the logo deadline, time for the asset to be stored. */
const LEASE_MARGIN_MS = 10_000;

/** An uploaded SVG's bounds beyond its bytes: a logo has a few hundred elements. */
const SVG_UPLOAD_MAX_ELEMENTS = 5_000;
const SVG_UPLOAD_MAX_DEPTH = 32;

/**
 * Text that could be an SVG: it starts (after a byte order mark and
 * space) with `<`. Anything else is not an image type taken (415); an
 * XML document that is not an SVG is a 400 of the sanitizer.
 */
const looksLikeXml = (bytes: Buffer): boolean =>
  /^(\uFEFF)?\s*</.test(bytes.subarray(0, 1024).toString('utf8'));

/** What a task made, to be kept as an asset. */
export interface ProducedAsset {
  kind: AssetKind;
  contentType: string;
  bytes: Buffer;
  prompt: string;
  model: string;
  /**
   * A derived file that replaces, rather than adds to, the project's
   * earlier ones: the project's assets of the same kind whose prompt
   * starts with this go when it is kept (a brand kit's file of one name),
   * and it does not count against ASSET_MAX_PER_PROJECT.
   */
  replaces?: string;
  /** Its name (a brand-kit file's); else the default (asset-file-names.ts). */
  fileName?: string;
  /**
   * Its size where the bytes do not say it (an SVG icon's grid); else read
   * from a raster's header.
   */
  size?: { width: number; height: number };
}

/** Told as the model of an uploaded image: no model made it. */
export const UPLOADED_MODEL = 'uploaded';

/** One result of a task, staged: kept in the runner's transaction, or discarded. */
export interface StagedResult {
  /** The id the asset is kept under. */
  id: string;
  /** Its bytes go into the database in parts (Database.largeTransaction). */
  large: boolean;
  /**
   * Inserts the row and bytes (409 when the project has no room left for
   * a counted result) and deletes the files it replaces.
   */
  keepIn(transaction: Transaction): Promise<void>;
  /** Once keepIn's transaction committed: the replaced files' bytes go. */
  kept(): Promise<void>;
  discard(): Promise<void>;
}

/** An asset's bytes, ready to be sent. */
export interface OpenedAsset {
  asset: AssetRecord;
  body: Readable;
  /** When the URL was signed: the seconds it still works. */
  secondsLeft?: number;
}

/**
 * Kept logos: generated through the logo pipeline, stored as assets of the
 * project's LOGO section (bytes in the database or S3), served by URL and
 * deleted with their project or on their own.
 */
@Injectable()
export class AssetsService {
  private readonly logger = new Logger(AssetsService.name);
  private readonly maxPerProject: number;
  private readonly leaseMs: number;
  private readonly upload: UploadLimits;
  /** Told as the model of a previewed logo hosted before models were recorded. */
  private readonly model: string;

  constructor(
    private readonly logo: LogoService,
    private readonly rows: AssetsRepository,
    private readonly bytes: AssetBytes,
    private readonly urls: AssetUrls,
    private readonly idempotency: IdempotencyService,
    private readonly db: Database,
    private readonly parked: ParkedLogos,
    private readonly scope: ProjectScope,
    private readonly statuses: WorkspaceStatuses,
    private readonly hostedLogos: HostedLogos,
    @Inject(assetsConfig.KEY) config: AssetsConfig,
    @Inject(logoConfig.KEY) logoSettings: ConfigType<typeof logoConfig>,
  ) {
    this.maxPerProject = config.maxPerProject;
    this.upload = config.upload;
    this.model = logoSettings.imageApi.model;
    this.leaseMs = logoSettings.imageApi.deadlineMs + LEASE_MARGIN_MS;
  }

  /**
   * 409 unless the project has room for `adding` more assets
   * (ASSET_MAX_PER_PROJECT), counted in the transaction that adds them:
   * for kept logos, task results, and a task about to be queued.
   */
  async assertRoom(
    transaction: Transaction,
    projectId: string,
    adding = 1,
  ): Promise<void> {
    const count = await this.rows.countOfProject(transaction, projectId);
    if (count + adding > this.maxPerProject) {
      throw new AssetLimitReachedException(this.maxPerProject);
    }
  }

  /**
   * POST /api/projects/{id}/logos: checks the project (404) and its room
   * (409) before the image model is paid, generates the logo as bytes,
   * then stores row and bytes (assets/asset-bytes). With an
   * Idempotency-Key the answer commits with the row, so a retry neither
   * pays twice nor stores twice. Answers the 201 (or the replay).
   */
  async keepLogo(
    projectId: string,
    request: KeepLogoBody,
    context: CallContext,
    key?: IdempotentRequest<KeptLogo>,
  ): Promise<KeptLogo | Replayed> {
    // Before anything is paid for: the asset's url needs this origin.
    const baseUrl = context.baseUrl();
    const owner = ProjectAccess.of(context).changeOwner();
    const source = this.sourceOf(request, baseUrl);
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const command: KeepLogoCommand = {
      projectId,
      source,
      caller: context,
      baseUrl,
      owner,
      key,
    };
    if (!key) return this.reserveAndKeep(command);
    return this.idempotency.runAnsweredByWork(key, this.leaseMs, () =>
      this.reserveAndKeep(command),
    );
  }

  private async reserveAndKeep(command: KeepLogoCommand): Promise<KeptLogo> {
    // One paid call per free slot: the slot is taken before the image model
    // is called, so of N keeps racing for the last slot N-1 are refused
    // without paying; it is given back whatever happens next.
    const reservation = { id: newId(), expiresAt: Date.now() + this.leaseMs };
    const reserved = await this.db.transaction(async (transaction) => {
      if (!(await this.scope.hold(transaction, command))) {
        throw new ProjectNotFoundException();
      }
      return this.rows.reserveSlot(
        transaction,
        command.projectId,
        this.maxPerProject,
        reservation,
      );
    });
    if (reserved === 'full') {
      throw new AssetLimitReachedException(this.maxPerProject);
    }
    try {
      // A kept logo's transaction gave its slot back as it committed.
      return await this.generateAndStore(command, reservation.id);
    } catch (error) {
      // A slot that cannot be given back now frees itself at its expiry.
      await this.rows.releaseSlot(reservation.id).catch((failure: unknown) => {
        this.logger.warn(
          `Asset slot not released (it expires by itself): ${failure instanceof Error ? failure.message : String(failure)}`,
        );
      });
      throw error;
    }
  }

  private async generateAndStore(
    command: KeepLogoCommand,
    reservation: string,
  ): Promise<KeptLogo> {
    // A bucket that cannot take the bytes now is found out before paying.
    await this.bytes.checkReachable();
    const { key, source } = command;
    if ('uploaded' in source) {
      // Nothing was paid for: nothing to park.
      return this.store(command, source.uploaded, reservation, source.sentName);
    }
    if ('previewedFile' in source) {
      // Already paid for, and kept until its expiry: nothing to park.
      return this.store(command, await this.previewed(source), reservation);
    }
    const image =
      (key && (await this.parked.find(key, source.prompt))) ??
      (await this.logo.generateImage(
        source.prompt,
        command.caller,
        source.format,
      ));
    try {
      return await this.store(command, image, reservation);
    } catch (error) {
      return this.parkForRetry(error, image, key);
    }
  }

  /**
   * A new logo for the logo request, or the previewed one `logoUrl` names
   * (400 when it is not a hosted logo URL of this service's: the service
   * never fetches a URL it is given).
   */
  private sourceOf(
    request: KeepLogoBody,
    baseUrl: string,
  ): KeepLogoCommand['source'] {
    if (request instanceof UploadedLogo) return this.uploadedSource(request);
    if (!(request instanceof KeepPreviewedLogoDto)) {
      return {
        prompt: buildLogoPrompt(request),
        format: this.logo.formatFor(request.format),
      };
    }
    const previewedFile = hostedLogoFileOf(request.logoUrl, baseUrl);
    if (previewedFile === undefined) {
      throw new InputValidationException([
        {
          path: ['logoUrl'],
          message: `Must be a logo URL this service answered (${HOSTED_LOGOS_PATH}/<id>.<png|jpg|webp>)`,
          code: 'invalid_string',
        },
      ]);
    }
    return { previewedFile };
  }

  /**
   * An uploaded image judged by its bytes alone (the type it was sent
   * with is never read): 413 over ASSET_UPLOAD_MAX_BYTES; 415 unless PNG,
   * JPEG, WebP or SVG; a raster over ASSET_UPLOAD_MAX_PIXELS (or without
   * a readable size) 400; an SVG rebuilt from the allow-list
   * (svg-safety), 400 when it cannot be.
   */
  private uploadedSource(upload: UploadedLogo): UploadedSource {
    const { maxBytes, maxPixels } = this.upload;
    if (upload.bytes.length > maxBytes) {
      throw new FileTooLargeException(maxBytes);
    }
    const sniffed = sniffImageType(upload.bytes);
    const image = { prompt: '', model: UPLOADED_MODEL };
    if (sniffed) {
      if (!isWithinPixelLimit(upload.bytes, sniffed, maxPixels)) {
        throw new TooManyPixelsException(maxPixels);
      }
      return {
        uploaded: { ...image, bytes: upload.bytes, type: sniffed },
        sentName: upload.sentName,
      };
    }
    if (!looksLikeXml(upload.bytes)) throw new UnsupportedImageTypeException();
    const { svg } = sanitizeSvg(upload.bytes.toString('utf8'), {
      maxBytes,
      maxElements: SVG_UPLOAD_MAX_ELEMENTS,
      maxDepth: SVG_UPLOAD_MAX_DEPTH,
    });
    return {
      uploaded: { ...image, bytes: Buffer.from(svg, 'utf8'), type: SVG_TYPE },
      sentName: upload.sentName,
    };
  }

  /** The previewed logo's bytes and origin; 404 once it has expired. */
  private async previewed(source: {
    previewedFile: string;
  }): Promise<LogoImage> {
    const image = await this.hostedLogos.read(source.previewedFile, {
      prompt: null,
      model: this.model,
    });
    if (!image) throw new PreviewedLogoNotFoundException();
    return image;
  }

  /**
   * The bytes (their store's first step), then in one transaction: the
   * project's version moved on, its room checked again (it may have gone,
   * or filled up, while the image was made), the row, the bytes' part of
   * it, the slot given back and the Idempotency-Key's answer. The bytes
   * are discarded when that transaction fails.
   */
  private async store(
    command: KeepLogoCommand,
    image: LogoImage,
    reservation: string,
    sentName?: string,
  ): Promise<KeptLogo> {
    const { projectId } = command;
    const id = newId();
    const sha256 = await sha256Of(image.bytes);
    const staged = await this.bytes.stage(
      {
        assetId: id,
        projectId,
        contentType: image.type.mediaType,
        bytes: image.bytes,
        sha256,
      },
      command.caller.signal,
    );
    const inTransaction = staged.large
      ? this.db.largeTransaction.bind(this.db)
      : this.db.transaction.bind(this.db);
    try {
      return await inTransaction(async (transaction) => {
        const version = await this.scope.advance(transaction, {
          projectId,
          owner: command.owner,
          missing: () => new ProjectNotFoundException(),
        });
        await this.assertRoom(transaction, projectId);
        const asset: AssetRecord = {
          id,
          projectId,
          sectionId: await this.rows.logoSectionId(transaction, projectId),
          kind: 'logo',
          contentType: image.type.mediaType,
          byteSize: image.bytes.length,
          sha256,
          prompt: image.prompt,
          model: image.model,
          createdAt: new Date().toISOString(),
          fileName:
            sentName === undefined
              ? defaultFileName('logo', id, image.type.mediaType)
              : uploadedFileName(sentName, {
                  kind: 'logo',
                  id,
                  contentType: image.type.mediaType,
                }),
          ...sizeOfImage(image.bytes),
        };
        await this.rows.insert(transaction, asset);
        // The LOGO section holds a result now: it is for review.
        await this.statuses.refresh(transaction, projectId);
        await staged.writeIn(transaction);
        await this.rows.releaseSlot(reservation, transaction);
        const kept: KeptLogo = {
          kept: {
            asset: toAssetDto(
              asset,
              this.urls.answerUrlsOf(asset, command.baseUrl),
            ),
          },
          change: { version },
        };
        if (command.key) {
          await this.idempotency.answerInTransaction(
            transaction,
            command.key,
            kept,
          );
        }
        return kept;
      });
    } catch (error) {
      await staged.discard();
      throw error;
    }
  }

  /**
   * The image model is paid: when only the storage failed, a retry with the
   * same Idempotency-Key stores these bytes instead of paying again.
   * Rethrows `error`.
   */
  private async parkForRetry(
    error: unknown,
    image: LogoImage,
    key: IdempotentKey | undefined,
  ): Promise<never> {
    if (key && error instanceof AssetStorageUnavailableError) {
      await this.parked.park(key, image);
    }
    throw error;
  }

  /**
   * How many more counted assets the project may hold now (`free`:
   * ASSET_MAX_PER_PROJECT, `limit`, less those it holds), in the
   * transaction that queues a task.
   */
  async room(
    transaction: Transaction,
    projectId: string,
  ): Promise<{ free: number; limit: number }> {
    const count = await this.rows.countOfProject(transaction, projectId);
    const limit = this.maxPerProject;
    return { free: Math.max(0, limit - count), limit };
  }

  /**
   * One result of a task made ready to keep as an asset of `sectionId`:
   * its bytes staged. The task runner keeps it in its own transaction
   * (`keepIn`: the project's room checked unless it replaces, the row and
   * the bytes' part of it, the files it replaces deleted) with the task's
   * progress, or discards it when the task moved on meanwhile.
   */
  async stageResult(
    target: { projectId: string; sectionId: string | null },
    result: ProducedAsset,
    signal: AbortSignal,
  ): Promise<StagedResult> {
    const { projectId, sectionId } = target;
    const id = newId();
    const record: AssetRecord = {
      id,
      projectId,
      sectionId,
      kind: result.kind,
      contentType: result.contentType,
      byteSize: result.bytes.length,
      sha256: await sha256Of(result.bytes),
      prompt: result.prompt,
      model: result.model,
      createdAt: new Date().toISOString(),
      fileName:
        result.fileName ?? defaultFileName(result.kind, id, result.contentType),
      ...(result.size ?? sizeOfImage(result.bytes)),
    };
    const bytes = await this.bytes.stage(
      { ...record, assetId: record.id, bytes: result.bytes },
      signal,
    );
    let replaced: AssetRef[] = [];
    return {
      id: record.id,
      large: bytes.large,
      keepIn: async (transaction) => {
        if (result.replaces === undefined) {
          await this.assertRoom(transaction, projectId);
        }
        await this.rows.insert(transaction, record);
        await bytes.writeIn(transaction);
        if (result.replaces !== undefined) {
          const ids = await this.rows.deleteReplaced(transaction, {
            projectId,
            kind: result.kind,
            promptStart: result.replaces,
            keptId: record.id,
          });
          replaced = ids.map((assetId) => ({ projectId, assetId }));
        }
      },
      kept: async () => {
        if (replaced.length === 0) return;
        // The rows are gone: bytes left behind are the store's sweep's.
        await this.bytes.forget(replaced).catch((error: unknown) => {
          this.logger.warn(
            `Replaced files' bytes not deleted (the sweep will): ${error instanceof Error ? error.message : String(error)}`,
          );
        });
      },
      discard: () => bytes.discard(),
    };
  }

  /** GET /api/projects/{id}/assets/{assetId}: one asset, its url made. */
  async get(
    projectId: string,
    assetId: string,
    context: CallContext,
  ): Promise<KeptAsset> {
    const owner = ProjectAccess.of(context).readOwner();
    const asset = await this.find(projectId, assetId, owner);
    const urls = this.urls.answerUrlsOf(asset, context.baseUrlOrRelative());
    return { asset: toAssetDto(asset, urls) };
  }

  /**
   * DELETE /api/projects/{id}/assets/{assetId}: the row (and database
   * bytes) in one transaction that also moves the project's version on
   * and recomputes the statuses of its sections (the FK un-chooses a
   * chosen asset); bytes kept elsewhere go after the commit. With If-Match, only while
   * the project is at a version it names (412 otherwise).
   */
  async remove(
    projectId: string,
    assetId: string,
    ifMatch: ExpectedVersions | undefined,
    context: CallContext,
  ): Promise<AssetsChange> {
    const change: ProjectChange = {
      projectId,
      owner: ProjectAccess.of(context).changeOwner(),
      ifMatch,
      missing: () => new ProjectNotFoundException(),
    };
    this.scope.precheck(change);
    if (!isWellFormedId(assetId)) throw new AssetNotFoundException();
    const ref: AssetRef = { projectId, assetId };
    const version = await this.db.transaction(async (transaction) => {
      const advanced = await this.scope.advance(transaction, change);
      // Throwing rolls the version back: nothing changed.
      if (!(await this.rows.delete(transaction, ref))) {
        throw new AssetNotFoundException();
      }
      // A section's last result, or its chosen one, may have gone with it.
      await this.statuses.refresh(transaction, projectId);
      return advanced;
    });
    await this.bytes.forget([ref]);
    return { version };
  }

  /**
   * The bytes behind an asset's url. The URL is the proof (an `<img>`
   * sends no token): signed URLs are checked first, so an expired or
   * forged one learns nothing, not even whether the asset exists.
   */
  async open(
    projectId: string,
    assetId: string,
    signature: UrlSignature,
    context: Pick<CallContext, 'signal'>,
  ): Promise<OpenedAsset> {
    if (!isWellFormedId(projectId) || !isWellFormedId(assetId)) {
      throw new AssetNotFoundException();
    }
    if (!this.urls.allows(projectId, signature)) {
      throw new AssetUrlRefusedException();
    }
    const asset = await this.rows.find(projectId, assetId);
    if (!asset) throw new AssetNotFoundException();
    const body = await this.bytes.open(
      { projectId, assetId },
      asset.byteSize,
      context.signal,
    );
    if (!body) {
      // A row always has its bytes; if not, an operator must hear of it.
      this.logger.error(`Asset ${assetId} has no stored bytes`);
      throw new AssetNotFoundException();
    }
    return { asset, body, secondsLeft: this.urls.secondsLeft(signature) };
  }

  /**
   * An asset's row for a task's work (its bytes are read through
   * AssetBytes or the renditions), of `owner`'s project when one is
   * given; null when it is not there (any more).
   */
  record(
    projectId: string,
    assetId: string,
    owner?: string,
  ): Promise<AssetRecord | null> {
    return this.rows.find(projectId, assetId, owner);
  }

  private async find(
    projectId: string,
    assetId: string,
    owner: string | undefined,
  ): Promise<AssetRecord> {
    if (!isWellFormedId(projectId) || !isWellFormedId(assetId)) {
      throw new AssetNotFoundException();
    }
    const asset = await this.rows.find(projectId, assetId, owner);
    if (!asset) throw new AssetNotFoundException();
    return asset;
  }
}
