import { WIREFRAME_LIMITS, WIREFRAME_SECTION_TYPES } from './wireframe';

/**
 * The structured-output schema a wireframe is asked for under, built to
 * the provider's strict mode: every object lists all its properties as
 * required and forbids others, an optional field is a union with null,
 * the root is an object, no composition keywords (allOf, not, if), and
 * no string lengths (strict mode ignores minLength/maxLength: the
 * lengths are checked on the answer). Array counts (minItems/maxItems)
 * and enums are supported: the page names asked for are an enum, and
 * the pages exactly as many.
 */
export function wireframeSchema(pages: readonly string[]) {
  const nullable = (schema: Record<string, unknown>) => ({
    anyOf: [schema, { type: 'null' }],
  });
  const item = {
    type: 'object',
    properties: {
      title: { type: 'string' },
      text: { type: ['string', 'null'] },
    },
    required: ['title', 'text'],
    additionalProperties: false,
  };
  const section = {
    type: 'object',
    properties: {
      type: { type: 'string', enum: [...WIREFRAME_SECTION_TYPES] },
      heading: { type: 'string' },
      body: { type: ['string', 'null'] },
      items: nullable({
        type: 'array',
        items: item,
        maxItems: WIREFRAME_LIMITS.itemsPerSection,
      }),
      cta: nullable({
        type: 'object',
        properties: { label: { type: 'string' } },
        required: ['label'],
        additionalProperties: false,
      }),
    },
    required: ['type', 'heading', 'body', 'items', 'cta'],
    additionalProperties: false,
  };
  return {
    type: 'object',
    properties: {
      pages: {
        type: 'array',
        minItems: pages.length,
        maxItems: pages.length,
        items: {
          type: 'object',
          properties: {
            name: { type: 'string', enum: [...pages] },
            sections: {
              type: 'array',
              minItems: 1,
              maxItems: WIREFRAME_LIMITS.sectionsPerPage,
              items: section,
            },
          },
          required: ['name', 'sections'],
          additionalProperties: false,
        },
      },
    },
    required: ['pages'],
    additionalProperties: false,
  };
}
