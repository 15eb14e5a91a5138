/**
 * What OpenAI's Structured Outputs accept under `strict: true`, as its
 * "Supported schemas" reference documents them: the root an object (not
 * anyOf); every object with `additionalProperties: false` and every
 * property in `required` (an optional field is a union with null); only
 * the documented keywords (strings: pattern, format; numbers: minimum,
 * maximum, exclusive bounds, multipleOf; arrays: items, minItems,
 * maxItems; composition: anyOf only); at most 5,000 properties, 10 levels
 * of nesting, 1,000 enum values and 120,000 characters of property
 * names, definition names, enum and const values. A schema outside these
 * is refused before anything is generated, with the provider's 400.
 */

type Schema = Record<string, unknown>;

const COMMON = [
  'type',
  'description',
  'title',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
];
const BY_TYPE: Record<string, string[]> = {
  string: ['pattern', 'format'],
  number: [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
  ],
  integer: [
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
  ],
  array: ['items', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'additionalProperties'],
  boolean: [],
  null: [],
};
const TYPES = Object.keys(BY_TYPE);

export const STRICT_LIMITS = {
  properties: 5000,
  depth: 10,
  enumValues: 1000,
  characters: 120_000,
};

class InvalidSchema extends Error {}

const contextOf = (path: readonly string[]) =>
  `context=(${path.map((part) => `'${part}'`).join(', ')})`;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Totals {
  properties: number;
  enumValues: number;
  characters: number;
}

function typesOf(schema: Schema, path: readonly string[]): string[] {
  const type = schema.type;
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
  for (const one of types) {
    if (typeof one !== 'string' || !TYPES.includes(one))
      throw new InvalidSchema(
        `In ${contextOf(path)}, type '${String(one)}' is not supported.`,
      );
  }
  return types as string[];
}

function walk(
  schema: unknown,
  path: string[],
  depth: number,
  totals: Totals,
): void {
  if (!isObject(schema))
    throw new InvalidSchema(
      `In ${contextOf(path)}, schema must be a JSON Schema of 'type: "object"', got '${JSON.stringify(schema)}'.`,
    );
  const types = typesOf(schema, path);
  if (
    types.length === 0 &&
    !('anyOf' in schema) &&
    !('$ref' in schema) &&
    !('enum' in schema) &&
    !('const' in schema)
  )
    throw new InvalidSchema(
      `In ${contextOf(path)}, schema must have a 'type' key.`,
    );
  const allowed = new Set([
    ...COMMON,
    ...types.flatMap((type) => BY_TYPE[type]),
  ]);
  for (const key of Object.keys(schema)) {
    if (!allowed.has(key))
      throw new InvalidSchema(
        `In ${contextOf(path)}, '${key}' is not permitted.`,
      );
  }
  if (Array.isArray(schema.enum)) {
    totals.enumValues += schema.enum.length;
    for (const value of schema.enum)
      if (typeof value === 'string') totals.characters += value.length;
  }
  if (typeof schema.const === 'string')
    totals.characters += schema.const.length;
  if ('anyOf' in schema) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0)
      throw new InvalidSchema(
        `In ${contextOf(path)}, 'anyOf' must be a non-empty array.`,
      );
    schema.anyOf.forEach((branch, i) =>
      walk(branch, [...path, 'anyOf', String(i)], depth, totals),
    );
  }
  for (const defs of ['$defs', 'definitions']) {
    if (isObject(schema[defs])) {
      for (const [name, definition] of Object.entries(schema[defs])) {
        totals.characters += name.length;
        walk(definition, [...path, defs, name], depth, totals);
      }
    }
  }
  if (types.includes('array')) {
    if (!('items' in schema))
      throw new InvalidSchema(
        `In ${contextOf(path)}, array schema missing items.`,
      );
    walk(schema.items, [...path, 'items'], depth, totals);
  }
  if (types.includes('object')) walkObject(schema, path, depth + 1, totals);
}

function walkObject(
  schema: Schema,
  path: string[],
  depth: number,
  totals: Totals,
): void {
  if (depth > STRICT_LIMITS.depth)
    throw new InvalidSchema(
      `In ${contextOf(path)}, the schema has more than ${STRICT_LIMITS.depth} levels of nesting.`,
    );
  if (schema.additionalProperties !== false)
    throw new InvalidSchema(
      `In ${contextOf(path)}, 'additionalProperties' is required to be supplied and to be false.`,
    );
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : undefined;
  const missing = Object.keys(properties).find(
    (key) => !required?.includes(key),
  );
  if (!required || missing !== undefined)
    throw new InvalidSchema(
      `In ${contextOf(path)}, 'required' is required to be supplied and to be an array including every key in properties.${missing === undefined ? '' : ` Missing '${missing}'.`}`,
    );
  const extra: unknown = required.find(
    (key) => typeof key !== 'string' || !(key in properties),
  );
  if (extra !== undefined)
    throw new InvalidSchema(
      `In ${contextOf(path)}, 'required' names '${JSON.stringify(extra)}', which is not in properties.`,
    );
  for (const [name, property] of Object.entries(properties)) {
    totals.properties++;
    totals.characters += name.length;
    walk(property, [...path, 'properties', name], depth, totals);
  }
}

/**
 * Why the provider refuses this response_format's json_schema under
 * strict mode (its 400 message), or undefined when it accepts it.
 */
export function strictSchemaRefusal(jsonSchema: unknown): string | undefined {
  if (!isObject(jsonSchema))
    return "Missing required parameter: 'response_format.json_schema'.";
  const name = jsonSchema.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    return "Invalid 'response_format.json_schema.name': must be a-z, A-Z, 0-9, underscores and dashes, at most 64 characters.";
  if (jsonSchema.strict !== true) return undefined;
  const prefix = `Invalid schema for response_format '${name}': `;
  const schema = jsonSchema.schema;
  if (!isObject(schema) || schema.type !== 'object' || 'anyOf' in schema)
    return `${prefix}schema must be a JSON Schema of 'type: "object"', and its root must not be 'anyOf'.`;
  const totals: Totals = { properties: 0, enumValues: 0, characters: 0 };
  try {
    walk(schema, [], 0, totals);
  } catch (error) {
    if (error instanceof InvalidSchema) return prefix + error.message;
    throw error;
  }
  if (totals.properties > STRICT_LIMITS.properties)
    return `${prefix}the schema has ${totals.properties} object properties; at most ${STRICT_LIMITS.properties} are permitted.`;
  if (totals.enumValues > STRICT_LIMITS.enumValues)
    return `${prefix}the schema has ${totals.enumValues} enum values; at most ${STRICT_LIMITS.enumValues} are permitted.`;
  if (totals.characters > STRICT_LIMITS.characters)
    return `${prefix}the total string length of property names, definition names, enum values and const values exceeds ${STRICT_LIMITS.characters}.`;
  return undefined;
}

/**
 * A value valid under `schema` (strict, as checked above), as a model
 * bound to it answers: every property present, the first type that is
 * not null, as many array items as the bounds allow up to three, the
 * enum value at the item's position in its array (so an enum of page
 * names is answered in its order), text that names `subject`.
 */
export function instanceOf(
  schema: unknown,
  subject: string,
  key = 'value',
  index = 0,
): unknown {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.anyOf)) {
    const branch: unknown =
      (schema.anyOf as Schema[]).find((one) => one.type !== 'null') ??
      schema.anyOf[0];
    return instanceOf(branch, subject, key, index);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum[index % schema.enum.length];
  const types: unknown[] = Array.isArray(schema.type)
    ? schema.type
    : [schema.type];
  const type = types.find((one) => one !== 'null') ?? 'null';
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(
          isObject(schema.properties) ? schema.properties : {},
        ).map(([name, property]) => [
          name,
          instanceOf(property, subject, name, index),
        ]),
      );
    case 'array': {
      const min = Number(schema.minItems ?? 0);
      const max = Number(schema.maxItems ?? Infinity);
      const count = Math.max(min, Math.min(max, 3));
      return Array.from({ length: count }, (_, i) =>
        instanceOf(schema.items, subject, key, i),
      );
    }
    case 'string':
      return `${subject} ${key} ${index + 1}`;
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/**
 * Where `value` breaks `schema` (a strict schema, as checked above), or
 * undefined when it is valid: what a client can check an answer by.
 */
export function schemaViolation(
  schema: unknown,
  value: unknown,
  at = '$',
): string | undefined {
  if (!isObject(schema)) return `${at}: no schema`;
  if (Array.isArray(schema.anyOf)) {
    return schema.anyOf.some(
      (branch) => schemaViolation(branch, value, at) === undefined,
    )
      ? undefined
      : `${at}: matches no branch of anyOf`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return `${at}: ${JSON.stringify(value)} is not in the enum`;
  const types: unknown[] = Array.isArray(schema.type)
    ? schema.type
    : [schema.type];
  const typeOf = (v: unknown) =>
    v === null
      ? 'null'
      : Array.isArray(v)
        ? 'array'
        : Number.isInteger(v) && types.includes('integer')
          ? 'integer'
          : typeof v;
  if (!types.includes(typeOf(value)))
    return `${at}: ${typeOf(value)} is not ${types.join(' or ')}`;
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      return `${at}: fewer than ${schema.minItems} items`;
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      return `${at}: more than ${schema.maxItems} items`;
    for (const [i, item] of value.entries()) {
      const broken = schemaViolation(schema.items, item, `${at}[${i}]`);
      if (broken) return broken;
    }
  }
  if (isObject(value)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const key of Object.keys(value))
      if (!(key in properties)) return `${at}: unexpected property ${key}`;
    for (const [key, property] of Object.entries(properties)) {
      if (!(key in value)) return `${at}: missing property ${key}`;
      const broken = schemaViolation(property, value[key], `${at}.${key}`);
      if (broken) return broken;
    }
  }
  return undefined;
}
