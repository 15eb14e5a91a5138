import type { Answer } from '../support/answer-contract';
import type { HttpCall } from '../support/http-client';
import { ASSET_ID, MINTED_QUERY } from './fuzz-asset-requests';
import type { FuzzRequest } from './fuzz-requests';

/** A small real PNG (1x1): the image the fuzz's upstream answers. */
export const FUZZ_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A kept logo the fuzz may name. */
export interface PooledAsset {
  id: string;
  projectId: string;
  byteSize: number;
  /** The query of the url the service made for it ('' when unsigned). */
  query: string;
}

/** A request with its ids filled in, and which asset it names, if any. */
export interface ResolvedRequest {
  path: string;
  /** An asset of the pool, named with its own project's id. */
  asset?: PooledAsset;
}

/** An id no asset has (well formed, so the lookup runs). */
const NO_SUCH_ASSET = '019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e21';

/**
 * The assets the fuzz keeps: fills {id}, {assetId} and the minted query of
 * generated requests, and follows what the answers did (a kept logo joins,
 * a deleted asset or project leaves).
 */
export class AssetPool {
  readonly assets: PooledAsset[] = [];

  resolve(request: FuzzRequest, projects: readonly string[]): ResolvedRequest {
    const { idChoice, assetChoice } = request;
    let asset: PooledAsset | undefined;
    let assetId = NO_SUCH_ASSET;
    if (assetChoice && 'existing' in assetChoice) {
      asset = this.assets[assetChoice.existing % this.assets.length];
      if (asset) assetId = asset.id;
    } else if (assetChoice) {
      assetId = assetChoice.segment;
    }
    let projectId: string | undefined;
    if (idChoice && 'existing' in idChoice) {
      projectId =
        asset?.projectId ?? projects[idChoice.existing % projects.length];
    } else if (idChoice) {
      projectId = idChoice.segment;
      asset = undefined;
    }
    let path = request.path.replace(ASSET_ID, assetId);
    if (projectId !== undefined) path = path.replace('{id}', projectId);
    path = path.split(MINTED_QUERY).join(asset?.query ?? '');
    return { path, asset };
  }

  /** Keeps the pool in step with what an answer did. */
  track(request: FuzzRequest, resolved: ResolvedRequest, answer: Answer): void {
    const projectId = /^\/api\/projects\/([^/?]+)/.exec(resolved.path)?.[1];
    if (request.operation === 'keepLogo' && answer.status === 201) {
      this.add(answer);
    }
    if (
      request.operation === 'deleteAsset' &&
      answer.status === 200 &&
      resolved.asset
    ) {
      this.assets.splice(this.assets.indexOf(resolved.asset), 1);
    }
    if (request.operation === 'delete' && answer.status === 200) {
      for (let i = this.assets.length - 1; i >= 0; i--) {
        if (this.assets[i].projectId === projectId) this.assets.splice(i, 1);
      }
    }
  }

  /** Adds the asset of a 201 from POST /api/projects/{id}/logos. */
  add(answer: Answer): void {
    const { asset } = JSON.parse(answer.text) as {
      asset: { id: string; projectId: string; byteSize: number; url: string };
    };
    this.assets.push({
      id: asset.id,
      projectId: asset.projectId,
      byteSize: asset.byteSize,
      query: new URL(asset.url).search.slice(1),
    });
  }

  /** The request that keeps one more logo in `projectId`. */
  static keepCall(projectId: string, headers: Record<string, string> = {}) {
    return {
      method: 'POST',
      path: `/api/projects/${projectId}/logos`,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        companyName: 'Fuzz Pool',
        style: 'modern',
        colors: ['navy'],
      }),
    } satisfies HttpCall;
  }
}
