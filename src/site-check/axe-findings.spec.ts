import { JSDOM } from 'jsdom';
import { accessibilityFindings, AXE_RULES_OFF } from './axe-findings';
import { BAD_PAGE, GOOD_PAGE } from '../../test/support/site-check-pages';

describe('accessibility (axe-core over jsdom)', () => {
  it('a good page has no findings', async () => {
    await expect(
      accessibilityFindings(new JSDOM(GOOD_PAGE).window),
    ).resolves.toEqual([]);
  });

  it('an image without alt is image-alt, an error (critical), on the image', async () => {
    const findings = await accessibilityFindings(new JSDOM(BAD_PAGE).window);
    expect(findings).toContainEqual({
      rule: 'image-alt',
      severity: 'error',
      message: expect.any(String),
      selector: 'img',
    });
    // Those our own rules report are not reported twice.
    const rules = findings.map((f) => f.rule);
    for (const off of AXE_RULES_OFF) expect(rules).not.toContain(off);
  });

  it('moderate impacts are warnings, and each page gets its own axe', async () => {
    const outside =
      '<!doctype html><html lang="en"><head><title>x</title></head><body><h1>x</h1><p>Outside</p><main><p>In</p></main></body></html>';
    const first = await accessibilityFindings(new JSDOM(outside).window);
    expect(first).toContainEqual(
      expect.objectContaining({ rule: 'region', severity: 'warning' }),
    );
    const second = await accessibilityFindings(new JSDOM(GOOD_PAGE).window);
    expect(second).toEqual([]);
  });
});
