import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { appConfig } from '../../config/app.config';
import type { AppConfig } from '../../config/environment';
import type { EntityTagCondition } from '../common/http/entity-tags';
import type { Caller } from '../common/http/request-context';
import { isWellFormedId, newId } from '../common/ids';
import { Database } from '../database/database.service';
import type { IdempotentRequest } from '../idempotency/idempotency-key.decorator';
import { IdempotencyService } from '../idempotency/idempotency.service';
import type { Replayed } from '../idempotency/replayed';
import { LogoService, type LogoCaller } from '../logo/logo.service';
import { ProjectNotFoundException } from '../projects/projects.errors';
import { ProjectPreconditionFailedException } from '../projects/projects.errors';
import { acceptedVersions } from '../projects/project-version';
import { AssetBytes, type AssetRef } from './asset-bytes/asset-bytes';
import { AssetUrls, type UrlSignature } from './asset-urls';
import {
  AssetLimitReachedException,
  AssetNotFoundException,
  AssetStorageUnavailableError,
  AssetUrlRefusedException,
} from './assets.errors';
import { AssetsRepository } from './assets.repository';
import type { AssetRecord } from './dto/asset.dto';
import { sha256Of } from './content-hash';
import type { KeepLogoDto } from './dto/keep-logo.dto';
import type { LogoImage } from '../logo/generated-logo';
import { ParkedLogos } from './parked-logos';
import type { AssetsChange, KeptAsset } from './kept-asset';

/** Beyond the logo deadline, time for the asset to be stored. */
const LEASE_MARGIN_MS = 10_000;

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

  constructor(
    private readonly logo: LogoService,
    private readonly rows: AssetsRepository,
    private readonly bytes: AssetBytes,
    private readonly urls: AssetUrls,
    private readonly idempotency: IdempotencyService,
    private readonly db: Database,
    private readonly parked: ParkedLogos,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.maxPerProject = config.assets.maxPerProject;
    this.leaseMs = config.imageApi.deadlineMs + LEASE_MARGIN_MS;
  }

  /**
   * POST /api/projects/{id}/logos: checks the project (404) and its room
   * (409) before the image model is paid, generates the logo as bytes,
   * then stores row and bytes (assets/asset-bytes). With an
   * Idempotency-Key the answer commits with the row, so a retry neither
   * pays twice nor stores twice.
   */
  async keepLogo(
    projectId: string,
    request: KeepLogoDto,
    caller: LogoCaller,
    baseUrl: string,
    owner?: string,
    key?: IdempotentRequest<KeptAsset>,
  ): Promise<KeptAsset | Replayed> {
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const work = () =>
      this.generateAndKeep(projectId, request, caller, baseUrl, owner, key);
    return key
      ? this.idempotency.run(key, this.leaseMs, work, { answeredByWork: true })
      : work();
  }

  private async generateAndKeep(
    projectId: string,
    request: KeepLogoDto,
    caller: LogoCaller,
    baseUrl: string,
    owner: string | undefined,
    key: IdempotentRequest<KeptAsset> | undefined,
  ): Promise<KeptAsset> {
    // One paid call per free slot: the slot is taken before the image model
    // is called, so of N keeps racing for the last slot N-1 are refused
    // without paying; it is given back whatever happens next.
    const reservation = newId();
    const reserved = await this.rows.reserveSlot(
      { projectId, owner },
      this.maxPerProject,
      reservation,
      Date.now() + this.leaseMs,
    );
    if (reserved === 'missing') throw new ProjectNotFoundException();
    if (reserved === 'full') {
      throw new AssetLimitReachedException(this.maxPerProject);
    }
    try {
      return await this.generateAndStore(
        projectId,
        request,
        caller,
        baseUrl,
        owner,
        key,
        reservation,
      );
    } finally {
      // A slot that cannot be given back now frees itself at its expiry.
      await this.rows.releaseSlot(reservation).catch((error: unknown) => {
        this.logger.warn(
          `Asset slot not released (it expires by itself): ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    }
  }

  private async generateAndStore(
    projectId: string,
    request: KeepLogoDto,
    caller: LogoCaller,
    baseUrl: string,
    owner: string | undefined,
    key: IdempotentRequest<KeptAsset> | undefined,
    reservation: string,
  ): Promise<KeptAsset> {
    // A bucket that cannot take the bytes now is found out before paying.
    await this.bytes.checkReachable();
    const image =
      (key && (await this.parked.find(key, request))) ??
      (await this.logo.generateImage(request, caller));
    const row: AssetRecord = {
      id: newId(),
      projectId,
      sectionId: null,
      kind: 'logo',
      contentType: image.type.mediaType,
      byteSize: image.bytes.length,
      sha256: await sha256Of(image.bytes),
      prompt: image.prompt,
      model: image.model,
      createdAt: new Date().toISOString(),
    };
    let kept: KeptAsset | undefined;
    const stored = this.bytes.keep(
      {
        assetId: row.id,
        projectId,
        contentType: row.contentType,
        bytes: image.bytes,
        sha256: row.sha256,
      },
      async (transaction) => {
        // The project may have gone, or filled up, while the image was made.
        const version = await this.rows.touchProject(transaction, {
          projectId,
          owner,
        });
        if (version === null) throw new ProjectNotFoundException();
        const count = await this.rows.countOfProject(transaction, projectId);
        if (count >= this.maxPerProject) {
          throw new AssetLimitReachedException(this.maxPerProject);
        }
        row.sectionId = await this.rows.logoSectionId(transaction, projectId);
        await this.rows.insert(transaction, row);
        await this.rows.releaseSlot(reservation, transaction);
        kept = { asset: { ...row, url: this.urls.urlOf(row, baseUrl) } };
        if (key) {
          await this.idempotency.answerInTransaction(transaction, key, kept);
        }
      },
      caller.signal,
    );
    await stored.catch((error: unknown) =>
      this.parkForRetry(error, image, key),
    );
    return kept!;
  }

  /**
   * The image model is paid: when only the storage failed, a retry with the
   * same Idempotency-Key stores these bytes instead of paying again.
   * Rethrows `error`.
   */
  private async parkForRetry(
    error: unknown,
    image: LogoImage,
    key: IdempotentRequest<KeptAsset> | undefined,
  ): Promise<never> {
    if (key && error instanceof AssetStorageUnavailableError) {
      await this.parked.park(key, image);
    }
    throw error;
  }

  /** GET /api/projects/{id}/assets/{assetId}: one asset, its url made. */
  async get(
    projectId: string,
    assetId: string,
    baseUrl: string,
    caller?: Caller,
  ): Promise<KeptAsset> {
    const owner = caller?.admin ? undefined : caller?.userId;
    const asset = await this.find(projectId, assetId, owner);
    return { asset: { ...asset, url: this.urls.urlOf(asset, baseUrl) } };
  }

  /**
   * DELETE /api/projects/{id}/assets/{assetId}: the row (and database
   * bytes) in one transaction that also moves the project's version on;
   * bytes kept elsewhere go after the commit. With If-Match, only while
   * the project is at a version it names (412 otherwise).
   */
  async remove(
    projectId: string,
    assetId: string,
    ifMatch?: EntityTagCondition,
    caller?: Caller,
  ): Promise<AssetsChange> {
    const versions = ifMatch && acceptedVersions(ifMatch);
    const refused = () =>
      ifMatch === undefined
        ? new ProjectNotFoundException()
        : new ProjectPreconditionFailedException();
    if (!isWellFormedId(projectId)) throw refused();
    if (Array.isArray(versions) && versions.length === 0) throw refused();
    if (!isWellFormedId(assetId)) throw new AssetNotFoundException();
    const ref: AssetRef = { projectId, assetId };
    const version = await this.db.transaction(async (transaction) => {
      const touched = await this.rows.touchProject(transaction, {
        projectId,
        owner: caller?.userId,
        ...(Array.isArray(versions) ? { versions } : {}),
      });
      if (touched === null) throw refused();
      // Throwing rolls the version back: nothing changed.
      if (!(await this.rows.delete(transaction, ref))) {
        throw new AssetNotFoundException();
      }
      return touched;
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
    signal?: AbortSignal,
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
      signal,
    );
    if (!body) {
      // A row always has its bytes; if not, an operator must hear of it.
      this.logger.error(`Asset ${assetId} has no stored bytes`);
      throw new AssetNotFoundException();
    }
    return { asset, body, secondsLeft: this.urls.secondsLeft(signature) };
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
