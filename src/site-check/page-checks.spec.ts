import { BAD_PAGE, GOOD_PAGE } from '../../test/support/site-check-pages';
import { AXE_MAX_ELEMENTS, checkPage } from './page-checks';

describe('checkPage', () => {
  it('a good page: every check ran, nothing found', async () => {
    const check = await checkPage(GOOD_PAGE);
    expect(check.findings).toEqual([]);
    expect(check.checked).toHaveLength(6);
  });

  it('a bad page: findings of each kind of check', async () => {
    const rules = new Set(
      (await checkPage(BAD_PAGE)).findings.map((f) => f.rule),
    );
    for (const rule of [
      'document-title',
      'html-lang',
      'meta-viewport',
      'meta-description',
      'heading-order',
      'external-request',
      'color-contrast-declared',
      'image-alt',
    ])
      expect(rules).toContain(rule);
    expect([...rules].some((rule) => rule.startsWith('html:'))).toBe(true);
  });

  it('a page over 2 MB is judged by its weight alone, not parsed', async () => {
    const check = await checkPage(`<p>${'x'.repeat(2 * 1024 * 1024)}</p>`);
    expect(check.findings).toEqual([
      expect.objectContaining({ rule: 'page-weight', severity: 'error' }),
    ]);
    expect(check.checked).toEqual(['page weight only (too large to parse)']);
  });

  it(`a page of over ${AXE_MAX_ELEMENTS} elements is not given to axe, and a warning says so`, async () => {
    const items = '<li>x</li>'.repeat(AXE_MAX_ELEMENTS);
    const check = await checkPage(
      `<!doctype html><html lang="en"><head><title>x</title></head><body><main><h1>x</h1><ul>${items}</ul></main></body></html>`,
    );
    expect(check.findings).toContainEqual(
      expect.objectContaining({ rule: 'page-elements', severity: 'warning' }),
    );
    expect(check.checked).toContain('not accessibility (too many elements)');
  });
});
