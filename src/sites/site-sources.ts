import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../assets/assets.service';
import { readSiteReport, type SiteReport } from '../site-check/site-report';
import { SiteSourcesRepository } from './site-sources.repository';

/** A kept asset's bytes and type. */
export interface SourceFile {
  id: string;
  contentType: string;
  bytes: Buffer;
}

/**
 * Reports read when looking for the chosen page's newest one: a report is
 * kept for each check, and the page is nearly always the last checked.
 */
const REPORTS_LOOKED_AT = 20;
/** A report with its findings is a few kilobytes; this bounds a bad one. */
const REPORT_MAX_BYTES = 1024 * 1024;

/**
 * What a site is made of, read from the project's kept assets: its chosen
 * landing page, that page's newest site check report, the brand kit's
 * icons and the og graphic. Every read is bounded in bytes.
 */
@Injectable()
export class SiteSources {
  constructor(
    private readonly rows: SiteSourcesRepository,
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
  ) {}

  chosenPage(projectId: string): Promise<string | undefined> {
    return this.rows.chosenPage(projectId);
  }

  /** The newest report whose page is `pageId`, with its asset id. */
  async reportOf(
    projectId: string,
    pageId: string,
  ): Promise<{ id: string; report: SiteReport } | undefined> {
    const ids = await this.rows.newestReports(projectId, REPORTS_LOOKED_AT);
    for (const id of ids) {
      const file = await this.read(projectId, id, REPORT_MAX_BYTES);
      const report = file && readSiteReport(file.bytes);
      if (report?.assetId === pageId) return { id, report };
    }
    return undefined;
  }

  /** The brand kit's files of these names the project holds, by name. */
  async kitFiles(
    projectId: string,
    names: readonly string[],
    maxBytes: number,
  ): Promise<Map<string, SourceFile>> {
    const ids = await this.rows.kitFiles(projectId, names);
    const files = new Map<string, SourceFile>();
    for (const [name, id] of ids) {
      const file = await this.read(projectId, id, maxBytes);
      if (file) files.set(name, file);
    }
    return files;
  }

  async ogGraphic(
    projectId: string,
    maxBytes: number,
  ): Promise<SourceFile | undefined> {
    const id = await this.rows.ogGraphic(projectId);
    return id ? this.read(projectId, id, maxBytes) : undefined;
  }

  /** An asset's bytes; undefined when it is gone or over `maxBytes`. */
  async read(
    projectId: string,
    assetId: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<SourceFile | undefined> {
    const asset = await this.assets.record(projectId, assetId);
    if (!asset || asset.byteSize > maxBytes) return undefined;
    const body = await this.bytes.open(
      { projectId, assetId },
      asset.byteSize,
      signal,
    );
    if (!body) return undefined;
    return {
      id: asset.id,
      contentType: asset.contentType,
      bytes: await readAll(body, maxBytes),
    };
  }
}

async function readAll(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      body.destroy();
      throw new Error('An asset is longer than its row says');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
