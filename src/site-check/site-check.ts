import { readFileSync } from 'node:fs';
import { pageWeightFindings } from './page-rules';
import { checkPageInWorker, SiteCheckFailure } from './site-checker';
import { siteReportOf } from './site-score';
import type { SiteReport } from './site-report';

/**
 * A page's checks end within this (a landing page takes well under a
 * second, a 2 MB one a few): past it the worker is ended and the report
 * says the check did not finish.
 */
export const SITE_CHECK_TIMEOUT_MS = 30_000;

const versionOf = (name: string): string =>
  (
    JSON.parse(
      readFileSync(require.resolve(`${name}/package.json`), 'utf8'),
    ) as {
      version: string;
    }
  ).version;

/** What checks a page, as its report asset's `model` tells it (no model: libraries). */
export const SITE_CHECKER = ['html-validate', 'axe-core', 'jsdom']
  .map((name) => `${name} ${versionOf(name)}`)
  .join(' + ');

/** The page to check: its html absent when it is over the size bound. */
export interface PageToCheck {
  assetId: string;
  byteSize: number;
  html?: string;
}

/**
 * A page's report. The checks run in the worker thread; a page over the
 * size bound is judged by its weight alone, and a check that did not
 * finish in `timeoutMs` (or whose worker died) is reported as the error
 * `check-incomplete` rather than failing the task. A cancel (`signal`)
 * rejects.
 */
export async function siteCheckOf(
  page: PageToCheck,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SiteReport> {
  const checkedAt = new Date();
  if (page.html === undefined) {
    return siteReportOf({
      ...page,
      findings: pageWeightFindings(page.byteSize),
      checked: ['page weight only (too large to parse)'],
      checkedAt,
    });
  }
  try {
    const check = await checkPageInWorker(page.html, timeoutMs, signal);
    return siteReportOf({ ...page, ...check, checkedAt });
  } catch (error) {
    if (!(error instanceof SiteCheckFailure)) throw error;
    return siteReportOf({
      ...page,
      findings: [
        ...pageWeightFindings(page.byteSize),
        {
          rule: 'check-incomplete',
          severity: 'error',
          message: `The page could not be checked: ${error.message}`,
        },
      ],
      checked: ['page weight; the other checks did not finish'],
      checkedAt,
    });
  }
}
