import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import {
  SITE_FILE_NAMES,
  type SiteFile,
  type SiteFileEntry,
} from '../site-files';
import { SiteStore } from './site-store';

/** A version's objects never change. */
const VERSION_CACHE = 'public, max-age=31536000, immutable';
/** current/ changes with a publish, a rollback or a take-down. */
const CURRENT_CACHE = 'public, max-age=5';

/**
 * SITES_STORE=s3: each version's files under `sites/<projectId>/v<N>/`
 * (immutable), and the current version's copied to
 * `sites/<projectId>/current/` (short cache), in the asset bucket; the
 * bucket's website endpoint or a CDN in front of it (SITES_BASE_URL)
 * serves them. Taking the site down deletes current/ only: the versions
 * stay, so a rollback can bring one back. The keys are outside the asset
 * prefix, so the asset store's sweep never looks at them.
 */
export class S3SiteStore extends SiteStore {
  readonly kind = 's3';
  readonly bytesInDatabase = false;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    super();
  }

  urlOf(projectId: string): string {
    return `${this.baseUrl}/sites/${projectId}/current/`;
  }

  versionUrlOf(projectId: string, version: number): string {
    return `${this.baseUrl}/sites/${projectId}/v${version}/`;
  }

  async putVersion(
    projectId: string,
    version: number,
    files: readonly SiteFile[],
  ): Promise<void> {
    for (const file of files) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: `sites/${projectId}/v${version}/${file.path}`,
          Body: file.bytes,
          ContentType: file.contentType,
          CacheControl: VERSION_CACHE,
        }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
    }
  }

  async showCurrent(
    projectId: string,
    version: number,
    files: readonly SiteFileEntry[],
  ): Promise<void> {
    for (const file of files) {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          CopySource: `${this.bucket}/sites/${projectId}/v${version}/${file.path}`,
          Key: `sites/${projectId}/current/${file.path}`,
          MetadataDirective: 'REPLACE',
          ContentType: file.contentType,
          CacheControl: CURRENT_CACHE,
        }),
        { abortSignal: AbortSignal.timeout(this.timeoutMs) },
      );
    }
    // A file the older version had and this one has not must not linger.
    const kept = new Set(files.map((file) => file.path));
    await this.deleteCurrent(
      projectId,
      SITE_FILE_NAMES.filter((name) => !kept.has(name)),
    );
  }

  hide(projectId: string): Promise<void> {
    return this.deleteCurrent(projectId, SITE_FILE_NAMES);
  }

  private async deleteCurrent(
    projectId: string,
    names: readonly string[],
  ): Promise<void> {
    if (names.length === 0) return;
    await this.client.send(
      new DeleteObjectsCommand({
        Bucket: this.bucket,
        Delete: {
          Objects: names.map((name) => ({
            Key: `sites/${projectId}/current/${name}`,
          })),
          Quiet: true,
        },
      }),
      { abortSignal: AbortSignal.timeout(this.timeoutMs) },
    );
  }
}
