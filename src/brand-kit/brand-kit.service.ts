import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Transaction } from '../database/database.service';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { ProjectAccess } from '../auth/project-access';
import type { CallContext } from '../common/call-context';
import { isWellFormedId } from '../common/ids';
import { ProjectScope } from '../project-scope/project-scope.repository';
import { ProjectNotFoundException } from '../project-scope/project-scope.errors';
import { BRAND_KIT_FILES } from './brand-kit-images';
import { NoBrandKitException } from './brand-kit.errors';
import {
  BrandKitRepository,
  type KitFileRow,
  type KitSource,
} from './brand-kit.repository';

/** A kit ready to be streamed. */
export interface BrandKitZip {
  filename: string;
  body: Readable;
}

/** A project name as a file name: lowercase ASCII words joined by dashes. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'project';
}

/**
 * GET /api/projects/{id}/brand-kit.zip: the newest file of each name made
 * from the chosen logo, zipped as the
 * client reads: each file's bytes are opened only when the zip reaches it
 * and pass through in chunks (stored, not compressed: PNGs are already).
 */
@Injectable()
export class BrandKitService {
  constructor(
    private readonly kits: BrandKitRepository,
    private readonly scope: ProjectScope,
    private readonly bytes: AssetBytes,
  ) {}

  /**
   * The logo a kit is made from, in the transaction that queues the kit's
   * task: `assetId`, or else the LOGO section's chosen one. Undefined
   * `logoId` when nothing is chosen; undefined `source` when the asset is
   * not a raster image of the project.
   */
  async kitSource(
    transaction: Transaction,
    projectId: string,
    assetId: string | undefined,
  ): Promise<{ logoId?: string; source?: KitSource }> {
    const logoId =
      assetId ?? (await this.kits.chosenLogoId(transaction, projectId));
    if (!logoId) return {};
    return {
      logoId,
      source: await this.kits.imageAsset(transaction, projectId, logoId),
    };
  }

  async zip(projectId: string, context: CallContext): Promise<BrandKitZip> {
    const owner = ProjectAccess.of(context).readOwner();
    if (!isWellFormedId(projectId)) throw new ProjectNotFoundException();
    const name = await this.scope.nameOf(projectId, owner);
    if (name === undefined) throw new ProjectNotFoundException();
    const logoId = await this.kits.chosenLogoOf(projectId);
    if (!logoId) throw new NoBrandKitException();
    const files = newestByName(await this.kits.kitFiles(projectId, logoId));
    if (BRAND_KIT_FILES.some((file) => !files.has(file))) {
      throw new NoBrandKitException();
    }
    const zip = new ZipFile();
    // A file that cannot be read fails the zip (an 'error' on the ZipFile,
    // which would otherwise be unhandled and end the process): the output
    // ends with it, and the route cuts the connection.
    zip.on('error', (error: Error) => {
      (zip.outputStream as Readable).destroy(error);
    });
    const add = (zipName: string, assetId: string, byteSize: number) =>
      zip.addReadStreamLazy(
        zipName,
        { compress: false, size: byteSize },
        (done) => {
          // yazl types the stream as given even on failure: none is.
          const fail = (error: Error) => done(error, undefined as never);
          this.bytes
            .open({ projectId, assetId }, byteSize, context.signal)
            .then(
              (body) =>
                body
                  ? done(null, body)
                  : fail(new Error(`Asset ${assetId} has no stored bytes`)),
              fail,
            );
        },
      );
    for (const file of BRAND_KIT_FILES) {
      const row = files.get(file);
      if (row) add(file, row.id, row.byteSize);
    }
    zip.end();
    return {
      filename: `${slugOf(name)}-brand-kit.zip`,
      body: zip.outputStream as Readable,
    };
  }
}

/** The newest row of each file name (rows come newest first). */
function newestByName(rows: KitFileRow[]): Map<string, KitFileRow> {
  const byName = new Map<string, KitFileRow>();
  for (const row of rows) {
    if (!byName.has(row.fileName)) byName.set(row.fileName, row);
  }
  return byName;
}
