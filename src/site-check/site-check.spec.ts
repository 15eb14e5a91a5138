import { BAD_PAGE, GOOD_PAGE } from '../../test/support/site-check-pages';
import { siteCheckOf, SITE_CHECKER } from './site-check';
import { stopSiteChecker } from './site-checker';

/** The checks in their worker thread (started from the .ts sources through ts-node). */
describe('siteCheckOf', () => {
  afterAll(() => stopSiteChecker());

  it('checks pages in the worker thread, one report each', async () => {
    const [good, bad] = await Promise.all([
      siteCheckOf(
        { assetId: 'good', byteSize: GOOD_PAGE.length, html: GOOD_PAGE },
        60_000,
      ),
      siteCheckOf(
        { assetId: 'bad', byteSize: BAD_PAGE.length, html: BAD_PAGE },
        60_000,
      ),
    ]);
    expect(good).toMatchObject({
      assetId: 'good',
      passed: true,
      score: 100,
      findings: [],
    });
    expect(bad).toMatchObject({ assetId: 'bad', passed: false });
    expect(bad.findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['image-alt', 'external-request', 'html-lang']),
    );
  }, 60_000);

  it('a page over the bound is judged by its size without being read', async () => {
    const report = await siteCheckOf(
      { assetId: 'big', byteSize: 3 * 1024 * 1024 },
      1,
    );
    expect(report).toMatchObject({ passed: false, counts: { error: 1 } });
    expect(report.findings[0].rule).toBe('page-weight');
  });

  it('a check over its time is reported as check-incomplete, and the next check runs', async () => {
    const report = await siteCheckOf(
      { assetId: 'slow', byteSize: GOOD_PAGE.length, html: GOOD_PAGE },
      1,
    );
    expect(report).toMatchObject({ passed: false });
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: 'check-incomplete', severity: 'error' }),
    );
    const next = await siteCheckOf(
      { assetId: 'next', byteSize: GOOD_PAGE.length, html: GOOD_PAGE },
      60_000,
    );
    expect(next.passed).toBe(true);
  }, 60_000);

  it('a cancel rejects with its reason', async () => {
    const controller = new AbortController();
    const checking = siteCheckOf(
      { assetId: 'cancelled', byteSize: GOOD_PAGE.length, html: GOOD_PAGE },
      60_000,
      controller.signal,
    );
    controller.abort(new Error('cancelled'));
    await expect(checking).rejects.toThrow('cancelled');
  });

  it('names the libraries that check, with their versions', () => {
    expect(SITE_CHECKER).toMatch(
      /^html-validate \d+\.\d+\.\d+ \+ axe-core \d+\.\d+\.\d+ \+ jsdom \d+\.\d+\.\d+$/,
    );
  });
});
