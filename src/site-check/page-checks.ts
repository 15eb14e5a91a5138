import { JSDOM } from 'jsdom';
import { accessibilityFindings } from './axe-findings';
import { declaredContrastFindings } from './declared-contrast';
import { externalRequestFindings } from './external-requests';
import { htmlValidityFindings } from './html-findings';
import {
  headFindings,
  headingFindings,
  PAGE_MAX_BYTES,
  pageWeightFindings,
} from './page-rules';
import type { SiteFinding } from './site-report';

/**
 * axe's time grows with the page's elements faster than linearly under
 * jsdom (about 20 s of CPU for 25,000): over this many the accessibility
 * check is skipped, and a warning says so. A landing page has hundreds.
 */
export const AXE_MAX_ELEMENTS = 5_000;

/** What the checks of one page found, and which checks ran. */
export interface PageCheck {
  findings: SiteFinding[];
  checked: string[];
}

/**
 * Every check of one page: its weight, then (when it is within
 * PAGE_MAX_BYTES) HTML validity, accessibility by axe and our own rules
 * over one jsdom document. jsdom runs none of the page's scripts and
 * loads none of its resources (its defaults, kept): the page is only
 * read. CPU-heavy (a landing page: tens of milliseconds to a second):
 * run in the site-check worker thread, not on the service's loop.
 */
export async function checkPage(html: string): Promise<PageCheck> {
  const byteSize = Buffer.byteLength(html);
  const weight = pageWeightFindings(byteSize);
  if (byteSize > PAGE_MAX_BYTES) {
    return {
      findings: weight,
      checked: ['page weight only (too large to parse)'],
    };
  }
  const dom = new JSDOM(html);
  try {
    const document = dom.window.document;
    const elements = document.getElementsByTagName('*').length;
    const accessible = elements <= AXE_MAX_ELEMENTS;
    return {
      findings: [
        ...weight,
        ...headFindings(document),
        ...headingFindings(document),
        ...externalRequestFindings(document),
        ...declaredContrastFindings(document),
        ...htmlValidityFindings(html),
        ...(accessible
          ? await accessibilityFindings(dom.window)
          : [
              {
                rule: 'page-elements',
                severity: 'warning' as const,
                message: `The page has ${elements} elements, over ${AXE_MAX_ELEMENTS}: accessibility (axe) was not checked`,
              },
            ]),
      ],
      checked: [
        'page weight',
        'head and headings',
        'external requests',
        'declared colour contrast',
        'HTML validity (html-validate)',
        accessible
          ? 'accessibility (axe-core, no layout)'
          : 'not accessibility (too many elements)',
      ],
    };
  } finally {
    dom.window.close();
  }
}
