import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { AssetBytes } from '../../assets/asset-bytes/asset-bytes';
import { AssetsService } from '../../assets/assets.service';
import {
  parseMarketingCopy,
  type MarketingCopy,
} from '../../text-generation/marketing-copy';
import { readKeptWireframe, type Wireframe } from '../../wireframes/wireframe';
import { TasksRepository } from '../tasks.repository';
import type { TaskWork } from './task-kind';

/** Marketing copy is a few kilobytes. */
const COPY_MAX_BYTES = 64 * 1024;
/** A wireframe within its limits is well under this. */
const WIREFRAME_MAX_BYTES = 256 * 1024;

/**
 * What a task reads of the project's earlier results: its latest
 * marketing copy, its chosen wireframe, any kept asset's bytes (bounded).
 */
@Injectable()
export class KeptContent {
  constructor(
    private readonly tasks: TasksRepository,
    private readonly assets: AssetsService,
    private readonly bytes: AssetBytes,
  ) {}

  async latestCopy(work: TaskWork): Promise<MarketingCopy | undefined> {
    const id = await this.tasks.newestAssetOf(
      work.project.id,
      'marketing-copy',
    );
    const content = id && (await this.read(work, id, COPY_MAX_BYTES));
    return content
      ? parseMarketingCopy(content.bytes.toString('utf8'))
      : undefined;
  }

  /**
   * The WIREFRAME section's chosen result, if it is a wireframe that
   * still checks out; else none (the caller works as without one).
   */
  async chosenWireframe(work: TaskWork): Promise<Wireframe | undefined> {
    const id = await this.tasks.selectedAssetOf(work.project.id, 'WIREFRAME');
    const content = id && (await this.read(work, id, WIREFRAME_MAX_BYTES));
    return content && content.kind === 'wireframe'
      ? readKeptWireframe(content.bytes)
      : undefined;
  }

  async read(
    work: TaskWork,
    assetId: string,
    maxBytes: number,
  ): Promise<{ bytes: Buffer; contentType: string; kind: string } | undefined> {
    const asset = await this.assets.record(work.project.id, assetId);
    if (!asset || asset.byteSize > maxBytes) return undefined;
    const body = await this.bytes.open(
      { projectId: asset.projectId, assetId: asset.id },
      asset.byteSize,
      work.signal,
    );
    return body
      ? {
          bytes: await readAll(body),
          contentType: asset.contentType,
          kind: asset.kind,
        }
      : undefined;
  }
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
