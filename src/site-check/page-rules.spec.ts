import {
  headFindings,
  headingFindings,
  pageWeightFindings,
} from './page-rules';
import {
  BAD_PAGE,
  documentOf,
  GOOD_PAGE,
} from '../../test/support/site-check-pages';

describe('page rules', () => {
  it('a good page has no head or heading findings', () => {
    const document = documentOf(GOOD_PAGE);
    expect(headFindings(document)).toEqual([]);
    expect(headingFindings(document)).toEqual([]);
  });

  it('a bad page lacks its title and lang (errors), viewport and description (warnings)', () => {
    const findings = headFindings(documentOf(BAD_PAGE));
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['document-title', 'error'],
      ['html-lang', 'error'],
      ['meta-viewport', 'warning'],
      ['meta-description', 'warning'],
    ]);
  });

  it('an empty title and a blank lang count as missing', () => {
    const document = documentOf(
      '<!doctype html><html lang=" "><head><title> </title></head><body></body></html>',
    );
    expect(headFindings(document).map((f) => f.rule)).toEqual(
      expect.arrayContaining(['document-title', 'html-lang']),
    );
  });

  it('headings: no h1 is an error, a skipped level a warning', () => {
    const findings = headingFindings(documentOf(BAD_PAGE));
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'heading-order',
        severity: 'error',
        message: 'The page has no <h1>',
      }),
      expect.objectContaining({
        rule: 'heading-order',
        severity: 'warning',
        selector: 'html > body > main > h4',
      }),
    ]);
  });

  it('headings: two h1 are an error naming the second', () => {
    const findings = headingFindings(
      documentOf('<body><h1 id="a">A</h1><h2>x</h2><h1 id="b">B</h1></body>'),
    );
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'error', selector: 'h1#b' }),
    ]);
  });

  it('page weight: a warning over 500 KB, an error over 2 MB', () => {
    expect(pageWeightFindings(500 * 1024)).toEqual([]);
    expect(pageWeightFindings(500 * 1024 + 1)).toEqual([
      expect.objectContaining({ rule: 'page-weight', severity: 'warning' }),
    ]);
    expect(pageWeightFindings(2 * 1024 * 1024 + 1)).toEqual([
      expect.objectContaining({ rule: 'page-weight', severity: 'error' }),
    ]);
  });
});
