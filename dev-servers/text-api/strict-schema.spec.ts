import { parseWireframe } from '../../src/wireframes/wireframe';
import { wireframeSchema } from '../../src/wireframes/wireframe-schema';
import { MARKETING_COPY_SCHEMA } from '../../src/text-generation/marketing-copy';
import {
  instanceOf,
  schemaViolation,
  strictSchemaRefusal,
} from './strict-schema';

/** The schema, reached into by the path a test breaks. */
type Nested = {
  properties: {
    pages: {
      items: {
        properties: {
          sections: {
            items: { additionalProperties?: boolean; required: string[] };
          };
        };
      };
    };
  };
};

const format = (schema: unknown, name = 'wireframe') => ({
  name,
  schema,
  strict: true,
});

describe('strict structured-output schemas (the dev text API)', () => {
  it("accepts the service's wireframe and marketing-copy schemas", () => {
    expect(
      strictSchemaRefusal(format(wireframeSchema(['home', 'pricing']))),
    ).toBeUndefined();
    expect(
      strictSchemaRefusal(format(MARKETING_COPY_SCHEMA, 'marketing_copy')),
    ).toBeUndefined();
  });

  it('refuses an object without additionalProperties false, at any depth', () => {
    const schema = wireframeSchema(['home']) as unknown as Nested;
    delete schema.properties.pages.items.properties.sections.items
      .additionalProperties;
    expect(strictSchemaRefusal(format(schema))).toMatch(
      /^Invalid schema for response_format 'wireframe': In context=\('properties', 'pages', 'items', 'properties', 'sections', 'items'\), 'additionalProperties' is required to be supplied and to be false\.$/,
    );
  });

  it('refuses an optional property left out of required', () => {
    const schema = wireframeSchema(['home']) as unknown as Nested;
    schema.properties.pages.items.properties.sections.items.required = [
      'type',
      'heading',
    ];
    expect(strictSchemaRefusal(format(schema))).toContain("Missing 'body'.");
  });

  it('refuses a root that is not an object, unsupported keywords and too deep a nesting', () => {
    expect(
      strictSchemaRefusal(format({ anyOf: [{ type: 'object' }] })),
    ).toContain("root must not be 'anyOf'");
    const withAllOf = {
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
      allOf: [],
    };
    expect(strictSchemaRefusal(format(withAllOf))).toContain(
      "'allOf' is not permitted",
    );
    const withLength = {
      type: 'object',
      properties: { a: { type: 'string', maxLength: 3 } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(strictSchemaRefusal(format(withLength))).toContain(
      "'maxLength' is not permitted",
    );
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 11; level++) {
      deep = {
        type: 'object',
        properties: { a: deep },
        required: ['a'],
        additionalProperties: false,
      };
    }
    expect(strictSchemaRefusal(format(deep))).toContain('more than 10 levels');
  });

  it('refuses more than 1,000 enum values and a bad name', () => {
    const many = {
      type: 'object',
      properties: {
        a: {
          type: 'string',
          enum: Array.from({ length: 1001 }, (_, i) => `v${i}`),
        },
      },
      required: ['a'],
      additionalProperties: false,
    };
    expect(strictSchemaRefusal(format(many))).toContain('1001 enum values');
    expect(
      strictSchemaRefusal(format(MARKETING_COPY_SCHEMA, 'bad name')),
    ).toContain('name');
  });

  it('answers a value of the wireframe schema that the service accepts, its pages in order', () => {
    const pages = ['home', 'pricing', 'about'];
    const value = instanceOf(wireframeSchema(pages), 'Acme');
    const wireframe = parseWireframe(JSON.stringify(value), pages);
    expect(wireframe.pages.map((page) => page.name)).toEqual(pages);
    expect(wireframe.pages[0].sections.length).toBeGreaterThan(0);
  });

  it('finds where a value breaks a schema', () => {
    const schema = wireframeSchema(['home']);
    const value = instanceOf(schema, 'Acme') as {
      pages: Array<{ sections: Array<Record<string, unknown>> }>;
    };
    expect(schemaViolation(schema, value)).toBeUndefined();
    value.pages[0].sections[0].type = 'video';
    expect(schemaViolation(schema, value)).toContain(
      '$.pages[0].sections[0].type',
    );
    delete value.pages[0].sections[0].body;
    expect(schemaViolation(schema, { pages: [] })).toContain('fewer than 1');
    expect(schemaViolation(schema, { pages: [], extra: 1 })).toContain(
      'unexpected property extra',
    );
  });
});
