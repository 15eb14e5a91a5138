import { selectorOf } from './element-selector';
import type { SiteFinding } from './site-report';

/** Above this a page is heavy for a landing page (a warning). */
export const PAGE_WARNING_BYTES = 500 * 1024;
/** Above this a page is too heavy (an error), and it is not parsed. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;

/** `page-weight`: the page's size in bytes, logo and styles included. */
export function pageWeightFindings(byteSize: number): SiteFinding[] {
  const kb = Math.round(byteSize / 1024);
  if (byteSize > PAGE_MAX_BYTES) {
    return [
      {
        rule: 'page-weight',
        severity: 'error',
        message: `The page is ${kb} KB, over the 2048 KB limit; it was not checked further`,
      },
    ];
  }
  if (byteSize > PAGE_WARNING_BYTES) {
    return [
      {
        rule: 'page-weight',
        severity: 'warning',
        message: `The page is ${kb} KB, over 500 KB: slow to load on a phone`,
      },
    ];
  }
  return [];
}

/**
 * The head's rules: `document-title` (error when missing or empty),
 * `html-lang` (error: screen readers need the language), `meta-viewport`
 * and `meta-description` (warnings: the page works without them, worse).
 */
export function headFindings(document: Document): SiteFinding[] {
  const findings: SiteFinding[] = [];
  if ((document.querySelector('title')?.textContent ?? '').trim() === '') {
    findings.push({
      rule: 'document-title',
      severity: 'error',
      message: 'The page has no <title> or an empty one',
      selector: 'head',
    });
  }
  if ((document.documentElement.getAttribute('lang') ?? '').trim() === '') {
    findings.push({
      rule: 'html-lang',
      severity: 'error',
      message: 'The <html> element has no lang attribute',
      selector: 'html',
    });
  }
  const viewport = document.querySelector('meta[name="viewport" i]');
  if (!/width\s*=/i.test(viewport?.getAttribute('content') ?? '')) {
    findings.push({
      rule: 'meta-viewport',
      severity: 'warning',
      message:
        'No <meta name="viewport" content="width=device-width, …">: phones show the page zoomed out',
      selector: 'head',
    });
  }
  const description = document.querySelector('meta[name="description" i]');
  if ((description?.getAttribute('content') ?? '').trim() === '') {
    findings.push({
      rule: 'meta-description',
      severity: 'warning',
      message:
        'No <meta name="description">: search results show arbitrary text',
      selector: 'head',
    });
  }
  return findings;
}

/** Headings read in order; a page has far fewer. */
const MAX_HEADINGS = 500;

/**
 * `heading-order`: exactly one <h1> (an error otherwise), and no level
 * skipped going down (h2 then h4: a warning, once per skip).
 */
export function headingFindings(document: Document): SiteFinding[] {
  const headings = [
    ...document.querySelectorAll('h1, h2, h3, h4, h5, h6'),
  ].slice(0, MAX_HEADINGS);
  const findings: SiteFinding[] = [];
  const ones = headings.filter((heading) => heading.localName === 'h1');
  if (ones.length !== 1) {
    findings.push({
      rule: 'heading-order',
      severity: 'error',
      message:
        ones.length === 0
          ? 'The page has no <h1>'
          : `The page has ${ones.length} <h1> elements; it should have one`,
      ...(ones[1] ? { selector: selectorOf(ones[1]) } : {}),
    });
  }
  let previous = 0;
  for (const heading of headings) {
    const level = Number(heading.localName.slice(1));
    if (previous > 0 && level > previous + 1) {
      findings.push({
        rule: 'heading-order',
        severity: 'warning',
        message: `<h${level}> follows <h${previous}>: a heading level is skipped`,
        selector: selectorOf(heading),
      });
    }
    previous = level;
  }
  return findings;
}
