import { maxLength, minLength } from 'class-validator';
import { isWellFormedText } from '../../common/validation/storable-text.decorator';
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_USER_ID_MAX,
} from '../projects.constants';
import { ProjectChangeRejectedError } from '../projects.errors';

/** The fields PATCH may change. */
export interface UpdateProjectDto {
  name?: string;
  description?: string | null;
  userId?: string;
}

type ChangeableField = keyof UpdateProjectDto;

interface FieldRules {
  /** Counted as create counts them (a surrogate pair is one character). */
  min: number;
  max: number;
  nullable: boolean;
}

/**
 * What each field can hold whatever the configuration: what both databases
 * store as sent. `userId` is indexed, and PostgreSQL cannot index a value
 * over about 2.7 kB, so it keeps create's 255 characters (at most 1,020
 * bytes of UTF-8) on both databases; name and description are unbounded
 * text, limited only by BODY_LIMIT (the contract applies a PATCH body
 * without validation; see docs/api.md).
 */
const STORABLE: Record<ChangeableField, FieldRules> = {
  name: { min: 0, max: Infinity, nullable: false },
  description: { min: 0, max: Infinity, nullable: true },
  userId: { min: 0, max: PROJECT_USER_ID_MAX, nullable: false },
};

/** Create's length rules, for operators who turn on PATCH_LENGTH_LIMITS. */
const CREATE_LENGTHS: Record<ChangeableField, FieldRules> = {
  name: { min: 1, max: PROJECT_NAME_MAX, nullable: false },
  description: { min: 0, max: PROJECT_DESCRIPTION_MAX, nullable: true },
  userId: STORABLE.userId,
};

export interface ProjectUpdateRules {
  /** Apply create's length rules to name and description too. */
  createLengths: boolean;
}

/**
 * Sent back by a client that PATCHes a project it fetched; never applied
 * (UpdateProjectBodyDto documents them as ignored).
 */
export interface IgnoredUpdateFields {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
}

const READ_ONLY_FIELDS = new Set(
  Object.keys({
    id: true,
    createdAt: true,
    updatedAt: true,
  } satisfies Record<keyof IgnoredUpdateFields, true>),
);

// PostgreSQL cannot store NUL in text; SQLite can. Refused on both.
// eslint-disable-next-line no-control-regex
const hasNulCharacter = (value: string) => /\u0000/.test(value);

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isChangeable = (key: string): key is ChangeableField =>
  Object.hasOwn(STORABLE, key);

const withinLength = (value: string, rules: FieldRules) =>
  (rules.min === 0 || minLength(value, rules.min)) &&
  (rules.max === Infinity || maxLength(value, rules.max));

/** Why `value` cannot be stored in `field`, or undefined when it can. */
function refusal(rules: FieldRules, field: ChangeableField, value: unknown) {
  if (value === null && rules.nullable) return undefined;
  if (typeof value !== 'string') {
    return `${field} must be a string${rules.nullable ? ' or null' : ''}`;
  }
  if (!withinLength(value, rules)) {
    return `${field} must be ${rules.min} to ${rules.max} characters long`;
  }
  // Both scans are linear and native: a 1 MB string takes about a millisecond.
  if (hasNulCharacter(value)) return `${field} must not contain NUL`;
  if (!isWellFormedText(value)) return `${field} must be well-formed Unicode`;
  return undefined;
}

/**
 * Reads a PATCH body "as given": each known field is taken exactly, and
 * anything a database cannot store as sent — an unknown key, a relation, a
 * value of the wrong JSON type, null for a required field, NUL, a lone
 * surrogate, a userId over 255 characters, a body that is not an object —
 * rejects the whole update, so nothing changes. Name and description have
 * no length rule unless the operator turned create's on.
 */
export function parseProjectUpdate(
  body: unknown,
  options: ProjectUpdateRules = { createLengths: false },
): UpdateProjectDto {
  if (!isJsonObject(body)) {
    throw new ProjectChangeRejectedError('the body is not a JSON object');
  }
  const rules = options.createLengths ? CREATE_LENGTHS : STORABLE;
  const changes: UpdateProjectDto = {};
  for (const key in body) {
    if (!Object.hasOwn(body, key) || READ_ONLY_FIELDS.has(key)) continue;
    if (!isChangeable(key)) {
      throw new ProjectChangeRejectedError(`field "${key}" cannot be changed`);
    }
    const value = body[key];
    const reason = refusal(rules[key], key, value);
    if (reason) throw new ProjectChangeRejectedError(reason);
    (changes as Record<string, unknown>)[key] = value;
  }
  return changes;
}
