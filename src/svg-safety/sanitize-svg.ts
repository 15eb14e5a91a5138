import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isRiskyCss, rebuildStyleAttribute } from './svg-css';
import {
  REFERENCE_ATTRIBUTES,
  SVG_ATTRIBUTES,
  SVG_ELEMENTS,
} from './svg-allow-list';
import { SvgRefusedError } from './svg-refused.error';

/** How large an SVG may be before it is even parsed. */
export interface SvgLimits {
  /** UTF-8 bytes of the text given. */
  maxBytes: number;
  /** Elements of the text given (the dropped ones count too). */
  maxElements: number;
  /** Nesting depth, the root being 1. */
  maxDepth: number;
}

/** A logo's SVG is a few kilobytes and a few hundred elements. */
export const DEFAULT_SVG_LIMITS: SvgLimits = {
  maxBytes: 1024 * 1024,
  maxElements: 10_000,
  maxDepth: 64,
};

/** A safe SVG: the document rebuilt from the allow-list. */
export interface SafeSvg {
  svg: string;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/**
 * Entities are never expanded by the parser (a DOCTYPE is refused before
 * parsing): the five XML ones and character references are decoded here,
 * so `&#106;avascript:` is judged as `javascript:`.
 */
const PARSER = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  commentPropName: false,
  allowBooleanAttributes: false,
});

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]*);/g;

/** Text with its references decoded; refuses a bare `&` or an undefined name. */
function decode(text: string): string {
  if (
    /&(?!(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]*);)/.test(text)
  ) {
    throw new SvgRefusedError('malformed');
  }
  return text.replace(ENTITY, (_, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1] === 'x'
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
      if (code > 0x10ffff || code === 0) throw new SvgRefusedError('malformed');
      return String.fromCodePoint(code);
    }
    const value = NAMED_ENTITIES[name];
    if (value === undefined) throw new SvgRefusedError('malformed');
    return value;
  });
}

const escapeText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const escapeAttribute = (text: string) =>
  escapeText(text).replace(/"/g, '&quot;');

/** An in-document reference, `#id`, once whitespace is set aside. */
const IN_DOCUMENT_REFERENCE = /^#[A-Za-z_][\w.:-]*$/;

/** Characters a browser ignores inside a URL scheme (`java\tscript:`). */
// eslint-disable-next-line no-control-regex -- control characters are what it matches
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u009f]/g;

/** Values that could name a script or another resource, wherever they are. */
const SCHEME = /(javascript|vbscript|data|file|https?|ftp):/i;

/**
 * The attribute's value as kept, or undefined when it is dropped: a
 * reference only to `#id`; `url(…)` only as `url(#id)`; a style rebuilt
 * from its allowed declarations; nothing naming a scheme.
 */
function keptValue(name: string, raw: string): string | undefined {
  const value = decode(raw);
  if (REFERENCE_ATTRIBUTES.has(name)) {
    const reference = value.replace(IGNORED_IN_URL, '');
    return IN_DOCUMENT_REFERENCE.test(reference) ? reference : undefined;
  }
  if (name === 'style') return rebuildStyleAttribute(value);
  if (SCHEME.test(value.replace(IGNORED_IN_URL, ''))) return undefined;
  if (/url\(/i.test(value) && isRiskyCss(value)) return undefined;
  return value;
}

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

interface Rebuild {
  limits: SvgLimits;
  usesXlink: boolean;
}

/** The node's element name, or undefined for text and CDATA. */
const elementNameOf = (node: XmlNode): string | undefined =>
  Object.keys(node).find((key) => key !== ':@' && !key.startsWith('#'));

function textOf(node: XmlNode): string | undefined {
  if (typeof node['#text'] === 'string') return decode(node['#text']);
  const cdata = node['#cdata'];
  if (Array.isArray(cdata)) {
    return (cdata as XmlNode[])
      .map((part) => (typeof part['#text'] === 'string' ? part['#text'] : ''))
      .join('');
  }
  return undefined;
}

function rebuildAttributes(
  attributes: Record<string, string> | undefined,
  state: Rebuild,
): string {
  let out = '';
  for (const [name, raw] of Object.entries(attributes ?? {})) {
    if (!SVG_ATTRIBUTES.has(name) || typeof raw !== 'string') continue;
    const value = keptValue(name, raw);
    if (value === undefined) continue;
    if (name === 'xlink:href') state.usesXlink = true;
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  return out;
}

/** The children of an allowed element, rebuilt; dropped ones leave nothing. */
function rebuildChildren(
  children: XmlNode[],
  parent: string,
  depth: number,
  state: Rebuild,
): string {
  if (parent === 'style') {
    const css = children.map((child) => textOf(child) ?? '').join('');
    // A stylesheet that could load anything is dropped whole.
    return isRiskyCss(css) ? '' : escapeText(css);
  }
  let out = '';
  for (const child of children) {
    const text = textOf(child);
    if (text !== undefined) {
      out += escapeText(text);
      continue;
    }
    out += rebuildElement(child, depth + 1, state);
  }
  return out;
}

function rebuildElement(node: XmlNode, depth: number, state: Rebuild): string {
  if (depth > state.limits.maxDepth) throw new SvgRefusedError('too_deep');
  const name = elementNameOf(node);
  if (name === undefined || !SVG_ELEMENTS.has(name)) return '';
  const children = (node[name] as XmlNode[] | undefined) ?? [];
  const attributes = rebuildAttributes(node[':@'], state);
  const inner = rebuildChildren(children, name, depth, state);
  if (name === 'style' && inner === '') return '';
  return inner === ''
    ? `<${name}${attributes}/>`
    : `<${name}${attributes}>${inner}</${name}>`;
}

/**
 * An untrusted SVG (uploaded, or written by a model) rebuilt from the
 * allow-list: every element and attribute not on it is left out, and the
 * values kept may name nothing outside the document. Throws
 * SvgRefusedError (400 `svg_unsafe`) for what cannot be rebuilt at all:
 * over the limits, a DOCTYPE or entity declaration (billion laughs), XML
 * that is not well-formed, or a root other than `<svg>`.
 */
export function sanitizeSvg(
  text: string,
  limits: SvgLimits = DEFAULT_SVG_LIMITS,
): SafeSvg {
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes) {
    throw new SvgRefusedError('too_large');
  }
  // Before any parsing: the parser never sees a declaration to expand.
  if (/<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST)/i.test(text)) {
    throw new SvgRefusedError('doctype');
  }
  if ((text.match(/<[A-Za-z_:]/g)?.length ?? 0) > limits.maxElements) {
    throw new SvgRefusedError('too_many_elements');
  }
  const body = text.replace(/^\uFEFF/, '');
  if (XMLValidator.validate(body) !== true) {
    throw new SvgRefusedError('malformed');
  }
  let nodes: XmlNode[];
  try {
    nodes = PARSER.parse(body) as XmlNode[];
  } catch {
    throw new SvgRefusedError('malformed');
  }
  const roots = nodes.filter((node) => elementNameOf(node) !== undefined);
  if (roots.length !== 1 || elementNameOf(roots[0]) !== 'svg') {
    throw new SvgRefusedError('not_svg');
  }
  const state: Rebuild = { limits, usesXlink: false };
  const root = roots[0];
  const attributes = rebuildAttributes(root[':@'], state);
  const inner = rebuildChildren(
    (root.svg as XmlNode[] | undefined) ?? [],
    'svg',
    1,
    state,
  );
  const namespaces = `xmlns="${SVG_NS}"${state.usesXlink ? ` xmlns:xlink="${XLINK_NS}"` : ''}`;
  return { svg: `<svg ${namespaces}${attributes}>${inner}</svg>` };
}
