import { randomBytes } from 'node:crypto';
import type { Database } from '../../database/database.service';
import { sqlFor } from '../../database/sql';

/** Who wrote an object: the sweep deletes only what its own deployment wrote. */
export interface DeploymentIdentity {
  id(): Promise<string>;
}

/**
 * This deployment's identity: one random id per database, created by the
 * migration that made the table (or here, if the row went missing), so
 * the replicas of one deployment agree and two deployments with their own
 * databases differ. Read once per process.
 */
export class DatabaseDeploymentIdentity implements DeploymentIdentity {
  private cached?: Promise<string>;

  constructor(private readonly db: Database) {}

  id(): Promise<string> {
    this.cached ??= this.read().catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  private async read(): Promise<string> {
    const first = await this.oldest();
    if (first) return first;
    // Two replicas may both insert: the oldest row (then the smaller id) wins for all.
    await this.db.write((manager) =>
      sqlFor(manager).changes(
        'INSERT INTO "deployment_identity" ("id", "createdAt") VALUES ($1, $2)',
        [newDeploymentId(), Date.now()],
      ),
    );
    const created = await this.oldest();
    if (!created) throw new Error('The deployment identity was not stored');
    return created;
  }

  private async oldest(): Promise<string | undefined> {
    const rows = await this.db.read((manager) =>
      sqlFor(manager).rows<{ id: string }>(
        'SELECT "id" FROM "deployment_identity" ORDER BY "createdAt", "id" LIMIT 1',
      ),
    );
    return rows[0]?.id;
  }
}

/** 128 random bits as 32 hex digits. */
export const newDeploymentId = () => randomBytes(16).toString('hex');
