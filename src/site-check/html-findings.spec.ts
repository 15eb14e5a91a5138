import { htmlValidityFindings } from './html-findings';
import { BAD_PAGE, GOOD_PAGE } from '../../test/support/site-check-pages';

describe('HTML validity (html-validate, standard preset)', () => {
  it('a valid page has no findings', () => {
    expect(htmlValidityFindings(GOOD_PAGE)).toEqual([]);
  });

  it('reports what the standard forbids as html:<rule>, with its line and element', () => {
    const findings = htmlValidityFindings(
      '<!doctype html><html lang="en"><head><title>x</title></head><body>\n<p><div>x</div></p>\n<ul><p>y</p></ul></body></html>',
    );
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.rule.startsWith('html:'))).toBe(true);
    expect(findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining([
        'html:close-order',
        'html:element-permitted-content',
      ]),
    );
    expect(findings.find((f) => f.rule === 'html:close-order')).toMatchObject({
      severity: 'error',
      message: expect.stringContaining('(line 2)'),
    });
  });

  it('leaves a missing lang to html-lang and a missing alt to axe', () => {
    const rules = htmlValidityFindings(BAD_PAGE).map((f) => f.rule);
    expect(rules).not.toContain('html:element-required-attributes');
    expect(rules).not.toContain('html:wcag/h37');
  });
});
