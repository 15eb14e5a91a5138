import { PROJECT_USER_ID_MAX } from '../project.constants';
import { ProjectChangeRejectedError } from '../projects.errors';

/** The fields PATCH may change (applied without length rules). */
export interface UpdateProjectDto {
  name?: string;
  description?: string | null;
  userId?: string;
}

/** Sent back by a client that PATCHes a project it fetched; never applied. */
const READ_ONLY_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);

// PostgreSQL cannot store NUL in text; SQLite can. Refused on both.
// eslint-disable-next-line no-control-regex
const hasNulCharacter = (value: string) => /\u0000/.test(value);

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a PATCH body "as given": each known field is taken
 * exactly, and anything that cannot be applied as given — an unknown key, a
 * relation, a value of the wrong JSON type, null for a required field, a body
 * that is not an object — rejects the whole update, so nothing changes.
 */
export function parseProjectUpdate(body: unknown): UpdateProjectDto {
  if (!isJsonObject(body)) {
    throw new ProjectChangeRejectedError('the body is not a JSON object');
  }
  const changes: UpdateProjectDto = {};
  for (const [key, value] of Object.entries(body)) {
    if (READ_ONLY_FIELDS.has(key)) continue;
    switch (key) {
      case 'name':
      case 'userId':
        if (typeof value !== 'string' || hasNulCharacter(value)) {
          throw new ProjectChangeRejectedError(`${key} must be a string`);
        }
        // The one limit PATCH keeps: a longer userId cannot be stored on
        // PostgreSQL (see PROJECT_USER_ID_MAX), and fails on both alike.
        if (key === 'userId' && [...value].length > PROJECT_USER_ID_MAX) {
          throw new ProjectChangeRejectedError('userId is too long to store');
        }
        changes[key] = value;
        break;
      case 'description':
        if (
          value !== null &&
          (typeof value !== 'string' || hasNulCharacter(value))
        ) {
          throw new ProjectChangeRejectedError(
            'description must be a string or null',
          );
        }
        changes.description = value;
        break;
      default:
        throw new ProjectChangeRejectedError(
          `field "${key}" cannot be changed`,
        );
    }
  }
  return changes;
}
