import { declaredContrastFindings, declaredRatio } from './declared-contrast';
import {
  BAD_PAGE,
  documentOf,
  GOOD_PAGE,
} from '../../test/support/site-check-pages';

describe('declared colour contrast', () => {
  it('a good page declares enough contrast', () => {
    expect(declaredContrastFindings(documentOf(GOOD_PAGE))).toEqual([]);
  });

  it('judges a <style> rule and a style attribute: an error below 3:1, a warning below 4.5:1', () => {
    const findings = declaredContrastFindings(documentOf(BAD_PAGE));
    expect(findings.map((f) => [f.severity, f.selector])).toEqual([
      ['error', 'p'],
      ['warning', 'html > body > main > p'],
    ]);
    expect(findings[0].message).toContain('2.32:1');
  });

  it('reads colours inside @media and the background shorthand', () => {
    const findings = declaredContrastFindings(
      documentOf(
        '<style>@media (min-width: 1px) { .x { color: yellow; background: white } }</style>',
      ),
    );
    expect(findings).toEqual([
      expect.objectContaining({ severity: 'error', selector: '.x' }),
    ]);
  });

  it('does not judge a colour alone, an unknown one or a translucent background', () => {
    expect(
      declaredRatio({ color: '#777', backgroundColor: '' }),
    ).toBeUndefined();
    expect(
      declaredRatio({ color: 'var(--a)', backgroundColor: '#fff' }),
    ).toBeUndefined();
    expect(
      declaredRatio({ color: '#777', backgroundColor: 'rgba(0, 0, 0, 0.5)' }),
    ).toBeUndefined();
    expect(
      declaredRatio({ color: '#000', backgroundColor: '#fff' }),
    ).toBeCloseTo(21);
  });
});
