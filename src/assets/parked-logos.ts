import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import type { ConfigType } from '@nestjs/config';
import { logoConfig } from '../logo/logo.config';
import { Database } from '../database/database.service';
import { ImageBlobStore } from '../image-store/image-blob-store';
import { sniffImageType } from '../image-store/image-type';
import type { IdempotentKey } from '../idempotency/idempotency-key.decorator';
import type { LogoImage } from '../logo/generated-logo';
import { DatabaseDeploymentIdentity } from './asset-bytes/deployment-identity';

/** How long a paid logo whose storage failed waits for its retry. */
export const PARKED_LOGO_TTL_MS = 60 * 60 * 1000;

/**
 * Paid logos whose storage failed, kept (in the database's image store)
 * for a retry with the same Idempotency-Key, so that the retry stores them
 * instead of paying the image model again. The image's id is derived from
 * the key's record and body with this deployment's secret identity: only
 * that retry finds it, and the hosted-logo route cannot be led to it.
 */
@Injectable()
export class ParkedLogos {
  private readonly logger = new Logger(ParkedLogos.name);
  private readonly identity: DatabaseDeploymentIdentity;
  private readonly model: string;

  constructor(
    private readonly images: ImageBlobStore,
    db: Database,
    @Inject(logoConfig.KEY) config: ConfigType<typeof logoConfig>,
  ) {
    this.identity = new DatabaseDeploymentIdentity(db);
    this.model = config.imageApi.model;
  }

  /** Never throws: failing to park only means a retry pays again. */
  async park(key: IdempotentKey, image: LogoImage): Promise<void> {
    try {
      const id = await this.idOf(key);
      if (await this.images.head(id)) return;
      await this.images.put(
        image.bytes,
        image.type.mediaType,
        Date.now() + PARKED_LOGO_TTL_MS,
        { id },
      );
    } catch (error) {
      this.logger.warn(
        `Keeping a paid logo for its retry failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /**
   * The logo parked for this key and body, or undefined; `prompt` is the
   * one the image model was given (the same body makes the same prompt).
   */
  async find(
    key: IdempotentKey,
    prompt: string,
  ): Promise<LogoImage | undefined> {
    const opened = await this.images.open(await this.idOf(key));
    if (!opened) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    const type = sniffImageType(bytes, { svg: true });
    if (!type) return undefined;
    return { bytes, type, prompt, model: this.model };
  }

  private async idOf(key: IdempotentKey): Promise<string> {
    return createHmac('sha256', await this.identity.id())
      .update(`parked-logo\n${key.recordId}\n${key.fingerprint}`)
      .digest('hex')
      .slice(0, 32);
  }
}
