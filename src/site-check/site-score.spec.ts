import {
  MAX_REPORTED_FINDINGS,
  scoreOf,
  siteReportOf,
  withoutRepeats,
} from './site-score';
import type { SiteFinding } from './site-report';

const finding = (
  severity: SiteFinding['severity'],
  rule = 'r',
): SiteFinding => ({
  rule,
  severity,
  message: `${rule} ${severity}`,
});

describe('site score and report', () => {
  it('scores 100 less 10 an error and 3 a warning, never below 0', () => {
    expect(scoreOf({ error: 0, warning: 0, info: 5 })).toBe(100);
    expect(scoreOf({ error: 2, warning: 3, info: 0 })).toBe(71);
    expect(scoreOf({ error: 11, warning: 0, info: 0 })).toBe(0);
  });

  it('passes with no errors; counts and score cover every finding, errors listed first', () => {
    const report = siteReportOf({
      assetId: 'page',
      byteSize: 2048,
      findings: [
        finding('info'),
        finding('warning'),
        finding('error', 'image-alt'),
      ],
      checked: ['everything'],
      checkedAt: new Date('2026-11-29T10:00:00.000Z'),
    });
    expect(report).toMatchObject({
      assetId: 'page',
      passed: false,
      score: 87,
      counts: { error: 1, warning: 1, info: 1 },
      checkedAt: '2026-11-29T10:00:00.000Z',
    });
    expect(report.findings.map((f) => f.severity)).toEqual([
      'error',
      'warning',
      'info',
    ]);
    const lines = report.summary.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('Checked 2 KB: everything.');
    expect(lines[2]).toBe('Errors from: image-alt.');
  });

  it(`lists at most ${MAX_REPORTED_FINDINGS} findings, errors first, and says so`, () => {
    const findings = [
      ...Array.from({ length: 250 }, (_, i) => finding('warning', `w${i}`)),
      ...Array.from({ length: 5 }, (_, i) => finding('error', `e${i}`)),
    ];
    const report = siteReportOf({
      assetId: 'page',
      byteSize: 1,
      findings,
      checked: ['all'],
      checkedAt: new Date(),
    });
    expect(report.findings).toHaveLength(MAX_REPORTED_FINDINGS);
    expect(
      report.findings.slice(0, 5).every((f) => f.severity === 'error'),
    ).toBe(true);
    expect(report.counts).toEqual({ error: 5, warning: 250, info: 0 });
    expect(report.score).toBe(0);
    expect(report.summary.split('\n')).toHaveLength(4);
    expect(report.summary).toContain(
      `Only the first ${MAX_REPORTED_FINDINGS} of 255 findings`,
    );
  });

  it('keeps one of the same rule on the same element with the same words', () => {
    const twice = { ...finding('error'), selector: 'img' };
    expect(
      withoutRepeats([twice, { ...twice }, { ...twice, selector: 'p' }]),
    ).toHaveLength(2);
  });
});
