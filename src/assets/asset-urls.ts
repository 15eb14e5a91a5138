import { Inject, Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { authConfig, type AuthConfig } from '../auth/auth.config';
import { assetsConfig, type AssetsConfig } from './assets.config';
import { thumbnailUrlOf } from './asset-file-names';

/** What goes around each asset's id in its url: `before + id + after`. */
export interface AssetUrlParts {
  before: string;
  after: string;
  /** When signed: the epoch second the URLs stop working. */
  expires?: number;
}

/** The query of a signed URL, as the content route reads it. */
export interface UrlSignature {
  expires?: string;
  signature?: string;
}

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
const EXPIRES = /^[1-9]\d{0,11}$/;

/**
 * The URLs that load an asset's bytes. An `<img>` sends no Authorization
 * header, so with AUTH_MODE=oidc the URL itself carries the proof: an
 * expiry and an HMAC of the project and that expiry, made only in answers
 * the caller was allowed to see. Without authentication anyone may read
 * every project, and the URL is stable.
 *
 * Expiries are rounded down to a sixth of ASSET_URL_TTL_S, so every answer
 * in that window carries the same URL and a browser's cache keeps working;
 * a URL still stops working at most ASSET_URL_TTL_S after it was made.
 */
@Injectable()
export class AssetUrls {
  private readonly key: string | undefined;
  private readonly ttlSeconds: number;
  private readonly windowSeconds: number;

  constructor(
    @Inject(authConfig.KEY) auth: AuthConfig,
    @Inject(assetsConfig.KEY) config: AssetsConfig,
  ) {
    this.key = auth.mode === 'oidc' ? config.urlSigningKey : undefined;
    this.ttlSeconds = config.urlTtlSeconds;
    this.windowSeconds = Math.max(1, Math.floor(this.ttlSeconds / 6));
  }

  get signed(): boolean {
    return this.key !== undefined;
  }

  /** The url parts of one project's assets, for an answer made now. */
  partsFor(
    projectId: string,
    baseUrl: string,
    now = Date.now(),
  ): AssetUrlParts {
    const before = `${baseUrl}/api/projects/${encodeURIComponent(projectId)}/assets/`;
    if (this.key === undefined) return { before, after: '/content' };
    const latest = Math.floor(now / 1000) + this.ttlSeconds;
    const expires = latest - (latest % this.windowSeconds);
    return {
      before,
      after: `/content?expires=${expires}&signature=${this.sign(projectId, expires)}`,
      expires,
    };
  }

  /** One asset's url (see partsFor). */
  urlOf(asset: { id: string; projectId: string }, baseUrl: string): string {
    const parts = this.partsFor(asset.projectId, baseUrl);
    return `${parts.before}${encodeURIComponent(asset.id)}${parts.after}`;
  }

  /** An asset's url and thumbnailUrl, for an answer made now. */
  answerUrlsOf(
    asset: {
      id: string;
      projectId: string;
      contentType: string;
      kind?: string;
    },
    baseUrl: string,
  ): { url: string; thumbnailUrl: string | null } {
    const url = this.urlOf(asset, baseUrl);
    return {
      url,
      thumbnailUrl: thumbnailUrlOf(url, asset.contentType, asset.kind),
    };
  }

  /**
   * Whether a content request may read the project's assets: always when
   * URLs are not signed; otherwise only with an unexpired signature of
   * this project that this key made.
   */
  allows(projectId: string, query: UrlSignature, now = Date.now()): boolean {
    if (this.key === undefined) return true;
    const { expires, signature } = query;
    if (typeof expires !== 'string' || !EXPIRES.test(expires)) return false;
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
      return false;
    }
    const at = Number(expires);
    const nowSeconds = now / 1000;
    // Expired, or further out than any URL this service makes.
    if (at <= nowSeconds || at > nowSeconds + this.ttlSeconds) return false;
    return timingSafeEqual(
      Buffer.from(signature),
      Buffer.from(this.sign(projectId, at)),
    );
  }

  /** The seconds a signed URL still works; undefined when not signed. */
  secondsLeft(query: UrlSignature, now = Date.now()): number | undefined {
    if (this.key === undefined) return undefined;
    return Math.max(0, Math.floor(Number(query.expires) - now / 1000));
  }

  private sign(projectId: string, expires: number): string {
    return createHmac('sha256', this.key!)
      .update(`asset-url\n${projectId}\n${expires}`)
      .digest('base64url');
  }
}
