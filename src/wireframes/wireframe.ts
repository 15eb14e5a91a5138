import { jsonAnswer } from '../text-generation/json-answer';
import { TextApiCallError } from '../text-generation/text-api-call.error';

/**
 * The kinds of section a wireframe is made of: a closed list, so that a
 * landing page can be asked for exactly these and a preview can draw
 * each one.
 */
export const WIREFRAME_SECTION_TYPES = [
  'header',
  'hero',
  'features',
  'steps',
  'stats',
  'logos',
  'testimonials',
  'pricing',
  'faq',
  'team',
  'gallery',
  'contact',
  'cta',
  'footer',
] as const;
export type WireframeSectionType = (typeof WIREFRAME_SECTION_TYPES)[number];

/** The bounds a kept wireframe is within (checked on every answer). */
export const WIREFRAME_LIMITS = {
  pages: 6,
  pageName: 40,
  sectionsPerPage: 12,
  itemsPerSection: 8,
  heading: 120,
  body: 600,
  itemTitle: 80,
  itemText: 300,
  ctaLabel: 40,
} as const;

/** A page name: lowercase letters, digits and dashes, a letter first. */
export const PAGE_NAME = /^[a-z][a-z0-9-]*$/;

export interface WireframeItem {
  title: string;
  text?: string;
}

export interface WireframeSection {
  type: WireframeSectionType;
  heading: string;
  body?: string;
  items?: WireframeItem[];
  cta?: { label: string };
}

export interface WireframePage {
  name: string;
  sections: WireframeSection[];
}

/** A wireframe as a task keeps it (application/json): nulls left out. */
export interface Wireframe {
  pages: WireframePage[];
}

type Fields = Record<string, unknown>;

class Checker {
  constructor(readonly invalid: (why: string) => Error) {}

  object(value: unknown, at: string, keys: readonly string[]): Fields {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw this.invalid(`${at} is not an object`);
    const extra = Object.keys(value).filter((key) => !keys.includes(key));
    if (extra.length > 0)
      throw this.invalid(`${at} has unexpected fields ${extra.join(', ')}`);
    return value as Fields;
  }

  array(value: unknown, at: string, min: number, max: number): unknown[] {
    if (!Array.isArray(value)) throw this.invalid(`${at} is not an array`);
    if (value.length < min || value.length > max)
      throw this.invalid(`${at} has ${value.length} items (${min}-${max})`);
    return value;
  }

  text(value: unknown, at: string, max: number): string {
    if (typeof value !== 'string' || value.trim() === '')
      throw this.invalid(`${at} is not a non-empty string`);
    if (value.length > max)
      throw this.invalid(`${at} is longer than ${max} characters`);
    return value;
  }

  /** A field the schema allows as null: absent or null means none. */
  optional<T>(value: unknown, read: (value: unknown) => T): T | undefined {
    return value === null || value === undefined ? undefined : read(value);
  }
}

function sectionOf(check: Checker, value: unknown, at: string) {
  const L = WIREFRAME_LIMITS;
  const fields = check.object(value, at, [
    'type',
    'heading',
    'body',
    'items',
    'cta',
  ]);
  if (!(WIREFRAME_SECTION_TYPES as readonly unknown[]).includes(fields.type)) {
    throw check.invalid(`${at}.type is not a known section type`);
  }
  const section: WireframeSection = {
    type: fields.type as WireframeSectionType,
    heading: check.text(fields.heading, `${at}.heading`, L.heading),
  };
  const body = check.optional(fields.body, (v) =>
    check.text(v, `${at}.body`, L.body),
  );
  const items = check.optional(fields.items, (v) =>
    check
      .array(v, `${at}.items`, 0, L.itemsPerSection)
      .map((item, i) => itemOf(check, item, `${at}.items[${i}]`)),
  );
  const cta = check.optional(fields.cta, (v) => ({
    label: check.text(
      check.object(v, `${at}.cta`, ['label']).label,
      `${at}.cta.label`,
      L.ctaLabel,
    ),
  }));
  if (body !== undefined) section.body = body;
  if (items !== undefined) section.items = items;
  if (cta !== undefined) section.cta = cta;
  return section;
}

function itemOf(check: Checker, value: unknown, at: string): WireframeItem {
  const fields = check.object(value, at, ['title', 'text']);
  const item: WireframeItem = {
    title: check.text(fields.title, `${at}.title`, WIREFRAME_LIMITS.itemTitle),
  };
  const text = check.optional(fields.text, (v) =>
    check.text(v, `${at}.text`, WIREFRAME_LIMITS.itemText),
  );
  if (text !== undefined) item.text = text;
  return item;
}

/**
 * A wireframe checked: exactly its fields, every section type one of
 * WIREFRAME_SECTION_TYPES, every count and text within WIREFRAME_LIMITS,
 * and its pages the ones asked for, in their order. `invalid` makes the
 * error a broken rule throws.
 */
export function checkWireframe(
  value: unknown,
  pages: readonly string[],
  invalid: (why: string) => Error,
): Wireframe {
  const check = new Checker(invalid);
  const root = check.object(value, 'the answer', ['pages']);
  const listed = check.array(root.pages, 'pages', pages.length, pages.length);
  return {
    pages: listed.map((page, p) => {
      const at = `pages[${p}]`;
      const fields = check.object(page, at, ['name', 'sections']);
      if (fields.name !== pages[p])
        throw invalid(`${at}.name is not "${pages[p]}"`);
      return {
        name: pages[p],
        sections: check
          .array(
            fields.sections,
            `${at}.sections`,
            1,
            WIREFRAME_LIMITS.sectionsPerPage,
          )
          .map((section, s) =>
            sectionOf(check, section, `${at}.sections[${s}]`),
          ),
      };
    }),
  };
}

/** The code model's answer as a wireframe of `pages`; else invalid_answer. */
export function parseWireframe(
  content: string,
  pages: readonly string[],
): Wireframe {
  const invalid = (why: string) =>
    new TextApiCallError(
      'invalid_answer',
      `The code model's wireframe is invalid: ${why}`,
      true,
    );
  return checkWireframe(jsonAnswer(content, invalid), pages, invalid);
}

/**
 * A kept wireframe read back (the preview, the landing page): checked as
 * an answer is, its pages whatever it holds; undefined when it is not one.
 */
export function readKeptWireframe(bytes: Buffer): Wireframe | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as { pages?: unknown };
    const names = Array.isArray(value?.pages)
      ? value.pages.map((page) => (page as { name?: unknown })?.name)
      : [];
    if (names.length === 0 || !names.every((name) => typeof name === 'string'))
      return undefined;
    return checkWireframe(value, names, (why) => new Error(why));
  } catch {
    return undefined;
  }
}
