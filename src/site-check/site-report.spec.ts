import { errorCount, readSiteReport, type SiteReport } from './site-report';

const report: SiteReport = {
  assetId: 'a1',
  passed: false,
  score: 80,
  counts: { error: 1, warning: 1, info: 0 },
  findings: [
    {
      rule: 'image-alt',
      severity: 'error',
      message: 'no alt',
      selector: 'img',
    },
    { rule: 'page-weight', severity: 'warning', message: 'heavy' },
  ],
  summary: '1 error, 1 warning',
  checkedAt: '2026-11-29T00:00:00.000Z',
};

describe('site report', () => {
  it('reads a kept report back as it was written', () => {
    expect(readSiteReport(Buffer.from(JSON.stringify(report)))).toEqual(report);
  });

  it.each([
    ['not JSON', '{'],
    ['no asset id', JSON.stringify({ ...report, assetId: 1 })],
    ['no findings', JSON.stringify({ ...report, findings: null })],
    ['no counts', JSON.stringify({ ...report, counts: null })],
  ])('refuses bytes that are not a report: %s', (_why, text) => {
    expect(readSiteReport(Buffer.from(text))).toBeUndefined();
  });

  it('counts only error findings as errors', () => {
    expect(errorCount(report)).toBe(1);
  });
});
