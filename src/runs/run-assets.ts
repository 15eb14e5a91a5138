import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../assets/assets.service';
import { errorCount, readSiteReport } from '../site-check/site-report';

/** A report or a deployment record is a few kilobytes; larger is not one. */
const RECORD_MAX_BYTES = 1024 * 1024;

/**
 * What a run reads of its steps' results: a site check's report (its
 * error count) and a deployment's address.
 */
@Injectable()
export class RunAssets {
  constructor(
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
  ) {}

  /** The errors of the report kept as `assetId`; undefined when it is none. */
  async reportErrors(
    projectId: string,
    assetId: string,
  ): Promise<number | undefined> {
    const bytes = await this.read(projectId, assetId);
    const report = bytes && readSiteReport(bytes);
    return report ? errorCount(report) : undefined;
  }

  /** The `url` of the deployment record kept as `assetId`, if it has one. */
  async deploymentUrl(
    projectId: string,
    assetId: string,
  ): Promise<string | undefined> {
    const bytes = await this.read(projectId, assetId);
    if (!bytes) return undefined;
    try {
      const record = JSON.parse(bytes.toString('utf8')) as { url?: unknown };
      return typeof record?.url === 'string' ? record.url : undefined;
    } catch {
      return undefined;
    }
  }

  private async read(
    projectId: string,
    assetId: string,
  ): Promise<Buffer | undefined> {
    const asset = await this.assets.record(projectId, assetId);
    if (!asset || asset.byteSize > RECORD_MAX_BYTES) return undefined;
    const body = await this.bytes.open(
      { projectId, assetId: asset.id },
      asset.byteSize,
    );
    return body ? readAll(body) : undefined;
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
