import { cssAddresses, externalRequestFindings } from './external-requests';
import {
  BAD_PAGE,
  documentOf,
  GOOD_PAGE,
} from '../../test/support/site-check-pages';

describe('external requests', () => {
  it('a self-contained page (data: URLs, anchors, mail and phone links) has none', () => {
    expect(externalRequestFindings(documentOf(GOOD_PAGE))).toEqual([]);
  });

  it('every address a bad page requests is an error on its element', () => {
    const findings = externalRequestFindings(documentOf(BAD_PAGE));
    expect(findings.every((f) => f.severity === 'error')).toBe(true);
    expect(findings.every((f) => f.rule === 'external-request')).toBe(true);
    expect(
      findings.map((f) => [f.selector, f.message.split(' requests ')[0]]),
    ).toEqual([
      ['html > head > link', '<link href>'],
      ['html > head > style', '<style>'],
      ['html > body > main > img', '<img src>'],
      ['html > body > main > img', '<img srcset>'],
      ['html > body > main > form', '<form action>'],
      ['html > body > main > div', '<div style>'],
      ['html > body > main > script', '<script src>'],
    ]);
    expect(findings[3].message).toContain('https://img.example.com/b.png');
  });

  it('reads CSS url() in its three spellings and @import, not data: or #fragments', () => {
    expect(
      cssAddresses(
        `@import 'a.css'; @import url(b.css); x{background:url("c.png")} y{background:url( d.png )} z{mask:url(#m)} w{background:url(data:image/png;base64,AA)}`,
      ),
    ).toEqual(['b.css', 'c.png', 'd.png', 'a.css']);
  });
});
