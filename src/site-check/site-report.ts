/**
 * A site check's report, kept as an asset of kind `site-report`
 * (`application/json`, in TESTING). Written by the site-check task, read
 * by the landing page's fix, by publish (its gate) and by runs (whether
 * to fix again). This file is the one definition of its shape.
 */
export const FINDING_SEVERITIES = ['error', 'warning', 'info'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

export interface SiteFinding {
  /** A stable rule name, e.g. `image-alt`, `external-request`, `html-lang`. */
  rule: string;
  severity: FindingSeverity;
  message: string;
  /** A CSS selector of the element, when the finding is about one. */
  selector?: string;
}

export interface SiteReport {
  /** The landing-page asset that was checked. */
  assetId: string;
  /** True when no finding is an error. */
  passed: boolean;
  /** 0–100: 100 less a weight per finding by severity. */
  score: number;
  counts: Record<FindingSeverity, number>;
  findings: SiteFinding[];
  /** A few readable lines: what was checked and what was found. */
  summary: string;
  checkedAt: string;
}

/** A report's bytes as kept; undefined when they are not a report. */
export function readSiteReport(bytes: Buffer): SiteReport | undefined {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<SiteReport>;
    if (
      typeof value?.assetId !== 'string' ||
      typeof value.passed !== 'boolean' ||
      typeof value.score !== 'number' ||
      !Array.isArray(value.findings) ||
      typeof value.counts !== 'object' ||
      value.counts === null
    )
      return undefined;
    return value as SiteReport;
  } catch {
    return undefined;
  }
}

/** How many of a report's findings are errors (what a fix must shrink). */
export const errorCount = (report: SiteReport): number =>
  report.findings.filter((finding) => finding.severity === 'error').length;
