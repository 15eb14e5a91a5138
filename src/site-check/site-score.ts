import {
  FINDING_SEVERITIES,
  type FindingSeverity,
  type SiteFinding,
  type SiteReport,
} from './site-report';

/** Findings a report lists (errors first); its counts cover them all. */
export const MAX_REPORTED_FINDINGS = 200;

/** What one finding costs the score, by severity. */
const WEIGHTS: Readonly<Record<FindingSeverity, number>> = {
  error: 10,
  warning: 3,
  info: 0,
};

/** 100 less 10 an error and 3 a warning, never below 0. */
export const scoreOf = (counts: Record<FindingSeverity, number>): number =>
  Math.max(
    0,
    100 -
      FINDING_SEVERITIES.reduce(
        (total, severity) => total + WEIGHTS[severity] * counts[severity],
        0,
      ),
  );

export function countsOf(
  findings: readonly SiteFinding[],
): Record<FindingSeverity, number> {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

/** The same rule on the same element with the same words, once. */
export function withoutRepeats(
  findings: readonly SiteFinding[],
): SiteFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.rule}\u0000${finding.selector ?? ''}\u0000${finding.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const RANK: Readonly<Record<FindingSeverity, number>> = {
  error: 0,
  warning: 1,
  info: 2,
};

/** What a check found, before it is a report. */
export interface CheckOutcome {
  assetId: string;
  byteSize: number;
  findings: readonly SiteFinding[];
  /** What ran, for the summary (e.g. "HTML validity, accessibility (axe)"). */
  checked: readonly string[];
  checkedAt: Date;
}

/**
 * The report: findings without repeats, errors first, at most
 * MAX_REPORTED_FINDINGS listed (the counts and the score cover all), a
 * few lines of summary.
 */
export function siteReportOf(outcome: CheckOutcome): SiteReport {
  const findings = withoutRepeats(outcome.findings).sort(
    (a, b) => RANK[a.severity] - RANK[b.severity],
  );
  const counts = countsOf(findings);
  const listed = findings.slice(0, MAX_REPORTED_FINDINGS);
  const score = scoreOf(counts);
  const passed = counts.error === 0;
  const rules = [
    ...new Set(
      findings.filter((f) => f.severity === 'error').map((f) => f.rule),
    ),
  ];
  const lines = [
    `Checked ${Math.round(outcome.byteSize / 1024)} KB: ${outcome.checked.join(', ')}.`,
    `${passed ? 'Passed' : 'Failed'} with score ${score}/100: ${counts.error} errors, ${counts.warning} warnings, ${counts.info} notes.`,
    rules.length > 0
      ? `Errors from: ${rules.slice(0, 10).join(', ')}${rules.length > 10 ? ', …' : ''}.`
      : 'No errors.',
  ];
  if (listed.length < findings.length) {
    lines.push(
      `Only the first ${listed.length} of ${findings.length} findings are listed (errors first).`,
    );
  }
  return {
    assetId: outcome.assetId,
    passed,
    score,
    counts,
    findings: listed,
    summary: lines.join('\n'),
    checkedAt: outcome.checkedAt.toISOString(),
  };
}
