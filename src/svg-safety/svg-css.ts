import { SVG_PRESENTATION_ATTRIBUTES } from './svg-allow-list';

/**
 * CSS inside an SVG, the `style` attribute and the `<style>` element: what
 * could load something (`url()` other than an in-document `#id`,
 * `@import` and every other at-rule, `image-set()`, IE's `expression()`
 * and `behavior`, Firefox's `-moz-binding`) or hide such a thing from
 * these checks (backslash escapes, comments that split a token) makes the
 * whole text unsafe.
 */

/** `url(#id)`, quoted or not: a paint server or clip path of the document. */
const IN_DOCUMENT_URL = /url\(\s*(['"]?)#[A-Za-z_][\w.:-]*\1\s*\)/gi;

const LOADS_OR_HIDES =
  /url\(|@|\\|\/\*|\*\/|expression|javascript|vbscript|behavior|binding|image-set|image\(|element\(|src\(|<|>|&/i;

/** Whether CSS text could load anything, once in-document urls are set aside. */
export function isRiskyCss(css: string): boolean {
  return LOADS_OR_HIDES.test(css.replace(IN_DOCUMENT_URL, ''));
}

/**
 * CSS properties a `style` attribute keeps: the presentation attributes
 * the allow-list keeps (svg-allow-list.ts), as CSS, and three CSS-only ones. A declaration of any other property is dropped.
 */
const STYLE_PROPERTIES: ReadonlySet<string> = new Set([
  ...SVG_PRESENTATION_ATTRIBUTES,
  // CSS properties that have no attribute form.
  'mix-blend-mode',
  'isolation',
  'transform-origin',
]);

/**
 * A `style` attribute rebuilt from its allowed declarations
 * (`name:value;…`), or undefined when nothing of it is kept. Any risky
 * text drops the whole attribute: it is not repaired.
 */
export function rebuildStyleAttribute(style: string): string | undefined {
  if (isRiskyCss(style)) return undefined;
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (STYLE_PROPERTIES.has(name) && value !== '') {
      kept.push(`${name}:${value}`);
    }
  }
  return kept.length > 0 ? kept.join(';') : undefined;
}
