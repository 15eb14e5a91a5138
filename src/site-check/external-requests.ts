import { selectorOf } from './element-selector';
import type { SiteFinding } from './site-report';

/** The attributes that make a browser fetch (or leave for) an address. */
const URL_ATTRIBUTES = ['src', 'href', 'action', 'poster'] as const;

/** Elements read; a page within its size bound has far fewer. */
const MAX_ELEMENTS = 50_000;

/** CSS `url(…)`, quoted or not. */
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*))\s*\)/gi;
/** CSS `@import "…"` (the `@import url(…)` form is caught by CSS_URL). */
const CSS_IMPORT = /@import\s+(?:"([^"]*)"|'([^']*)')/gi;

/**
 * An address the page may hold without anything being requested: a data:
 * URL, an in-page anchor (`#id`), mail and phone links, or nothing.
 */
function staysInPage(address: string, attribute: string): boolean {
  const value = address.trim().toLowerCase();
  if (value === '' || value.startsWith('data:') || value.startsWith('#'))
    return true;
  return (
    attribute === 'href' &&
    (value.startsWith('mailto:') || value.startsWith('tel:'))
  );
}

/** The addresses of a srcset: each candidate's first word. */
const srcsetAddresses = (srcset: string): string[] =>
  srcset
    .split(/,\s+/)
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((address) => address !== '');

/** The addresses a piece of CSS asks the browser to fetch. */
export function cssAddresses(css: string): string[] {
  const found: string[] = [];
  for (const pattern of [CSS_URL, CSS_IMPORT]) {
    for (const match of css.matchAll(pattern)) {
      found.push((match[1] ?? match[2] ?? match[3] ?? '').trim());
    }
  }
  return found.filter((address) => !staysInPage(address, 'css'));
}

const shorten = (address: string) =>
  address.length > 120 ? `${address.slice(0, 117)}...` : address;

/**
 * `external-request` (error): anything that would make the page load
 * from elsewhere, or leave for elsewhere (src, href, srcset, action,
 * poster; url() and @import in <style> and style attributes). The page
 * is served sandboxed and must stand alone.
 */
export function externalRequestFindings(document: Document): SiteFinding[] {
  const findings: SiteFinding[] = [];
  const report = (element: Element, where: string, address: string) =>
    findings.push({
      rule: 'external-request',
      severity: 'error',
      message: `${where} requests ${shorten(address)}: the page must be self-contained (inline it as a data: URL or remove it)`,
      selector: selectorOf(element),
    });
  const elements = [...document.querySelectorAll('*')].slice(0, MAX_ELEMENTS);
  for (const element of elements) {
    const tag = element.localName;
    for (const attribute of URL_ATTRIBUTES) {
      const value = element.getAttribute(attribute);
      if (value !== null && !staysInPage(value, attribute))
        report(element, `<${tag} ${attribute}>`, value);
    }
    const srcset = element.getAttribute('srcset');
    for (const address of srcset ? srcsetAddresses(srcset) : []) {
      if (!staysInPage(address, 'srcset'))
        report(element, `<${tag} srcset>`, address);
    }
    const style = element.getAttribute('style');
    for (const address of style ? cssAddresses(style) : [])
      report(element, `<${tag} style>`, address);
    if (tag === 'style') {
      for (const address of cssAddresses(element.textContent ?? ''))
        report(element, '<style>', address);
    }
  }
  return findings;
}
