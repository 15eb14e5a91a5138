import { maxLength, minLength } from 'class-validator';
import { isWellFormedText } from '../../common/validation/storable-text.decorator';
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_USER_ID_MAX,
} from '../project.constants';
import { ProjectChangeRejectedError } from '../projects.errors';

/** The fields PATCH may change (applied within create's text rules). */
export interface UpdateProjectDto {
  name?: string;
  description?: string | null;
  userId?: string;
}

type ChangeableField = keyof UpdateProjectDto;

/**
 * The rules create applies to each field, kept on PATCH (see
 * docs/decisions.md): without them a single PATCH could store a 1 MB name,
 * which every list then carries. Lengths are counted as create counts them
 * (class-validator's, where a surrogate pair is one character).
 */
const TEXT_RULES: Record<
  ChangeableField,
  { min: number; max: number; nullable: boolean }
> = {
  name: { min: 1, max: PROJECT_NAME_MAX, nullable: false },
  description: { min: 0, max: PROJECT_DESCRIPTION_MAX, nullable: true },
  userId: { min: 0, max: PROJECT_USER_ID_MAX, nullable: false },
};

/** Sent back by a client that PATCHes a project it fetched; never applied. */
const READ_ONLY_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);

// PostgreSQL cannot store NUL in text; SQLite can. Refused on both.
// eslint-disable-next-line no-control-regex
const hasNulCharacter = (value: string) => /\u0000/.test(value);

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isChangeable = (key: string): key is ChangeableField =>
  Object.hasOwn(TEXT_RULES, key);

/** Why `value` cannot be stored in `field`, or undefined when it can. */
function refusal(field: ChangeableField, value: unknown): string | undefined {
  const rules = TEXT_RULES[field];
  if (value === null && rules.nullable) return undefined;
  if (typeof value !== 'string') {
    return `${field} must be a string${rules.nullable ? ' or null' : ''}`;
  }
  if (!minLength(value, rules.min) || !maxLength(value, rules.max)) {
    return `${field} must be ${rules.min} to ${rules.max} characters long`;
  }
  if (hasNulCharacter(value)) return `${field} must not contain NUL`;
  if (!isWellFormedText(value)) return `${field} must be well-formed Unicode`;
  return undefined;
}

/**
 * Reads a PATCH body "as given": each known field is taken exactly, and
 * anything that cannot be applied as given — an unknown key, a relation, a
 * value of the wrong JSON type, null for a required field, text outside
 * create's rules (length, NUL, a lone surrogate), a body that is not an
 * object — rejects the whole update, so nothing changes.
 */
export function parseProjectUpdate(body: unknown): UpdateProjectDto {
  if (!isJsonObject(body)) {
    throw new ProjectChangeRejectedError('the body is not a JSON object');
  }
  const changes: UpdateProjectDto = {};
  for (const key in body) {
    if (!Object.hasOwn(body, key) || READ_ONLY_FIELDS.has(key)) continue;
    if (!isChangeable(key)) {
      throw new ProjectChangeRejectedError(`field "${key}" cannot be changed`);
    }
    const value = body[key];
    const reason = refusal(key, value);
    if (reason) throw new ProjectChangeRejectedError(reason);
    (changes as Record<string, unknown>)[key] = value;
  }
  return changes;
}
