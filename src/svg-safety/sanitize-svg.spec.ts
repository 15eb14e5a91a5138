import { XMLValidator } from 'fast-xml-parser';
import { sanitizeSvg } from './sanitize-svg';
import { SvgRefusedError, type SvgRefusal } from './svg-refused.error';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const svg = (inner: string, attributes = '') =>
  `<svg ${NS}${attributes}>${inner}</svg>`;
const clean = (text: string) => sanitizeSvg(text).svg;

function refusal(text: string, limits?: Parameters<typeof sanitizeSvg>[1]) {
  try {
    sanitizeSvg(text, limits);
  } catch (error) {
    if (error instanceof SvgRefusedError) return error.reason;
    throw error;
  }
  return 'accepted';
}

/** Nothing in the output that could run or load anything. */
function expectInert(output: string) {
  expect(XMLValidator.validate(output)).toBe(true);
  expect(output.replace(/xmlns(:xlink)?="[^"]*"/g, '')).not.toMatch(
    /script|javascript|foreignObject|<image|<animate|<set|onload|onclick|onmouseover|http:|https:|data:|@import|expression/i,
  );
}

describe('sanitizeSvg', () => {
  it('keeps a plain logo as it draws', () => {
    const logo = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#04f"/></linearGradient></defs><rect width="10" height="10" rx="2" fill="url(#g)"/><text x="1" y="8" font-family="Arial">A &amp; B</text>',
      ' viewBox="0 0 10 10"',
    );
    expect(clean(logo)).toBe(logo);
  });

  it('drops script elements, whatever their prefix or case', () => {
    const output = clean(
      `<svg ${NS} xmlns:svg="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xhtml"><svg:script>alert(1)</svg:script><script>alert(2)</script><SCRIPT>alert(3)</SCRIPT><Script>alert(4)</Script><x:script>alert(5)</x:script><rect width="1" height="1"/></svg>`,
    );
    expect(output).toBe(svg('<rect width="1" height="1"/>'));
  });

  it('drops event handlers, plain, namespaced or in any case', () => {
    const output = clean(
      `<svg ${NS} xmlns:ev="http://www.w3.org/2001/xml-events" onload="alert(1)" ONLOAD="alert(2)"><rect onclick="alert(3)" ev:onclick="alert(4)" OnMouseOver="alert(5)" ev:event="click" width="1"/></svg>`,
    );
    expect(output).toBe(svg('<rect width="1"/>'));
  });

  it('states its own namespaces: a redeclared default namespace is dropped', () => {
    const output = clean(
      `<svg ${NS}><g xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></g></svg>`,
    );
    expect(output).toBe(svg('<g/>'));
  });

  it('keeps use and xlink:href only to an in-document #id', () => {
    const output = clean(
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><use href="http://evil.example/x.svg#a"/><use xlink:href="https://evil.example/x.svg#a"/><use href="#a"/><use xlink:href="#b"/><use href="//evil.example/a"/></svg>`,
    );
    expect(output).toBe(
      `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><use/><use/><use href="#a"/><use xlink:href="#b"/><use/></svg>`,
    );
  });

  it('drops javascript: references hidden by whitespace or character references', () => {
    for (const href of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;&#x61;vascript:alert(1)',
      'java&#x09;script:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
    ]) {
      const output = clean(svg(`<use href="${href}" xlink:href="${href}"/>`));
      expect(output).toBe(svg('<use/>'));
    }
  });

  it('drops animate and set, which can turn an href into javascript:', () => {
    const output = clean(
      svg(
        '<use href="#a"><animate attributeName="href" values="javascript:alert(1)"/><set attributeName="href" to="javascript:alert(1)"/><animateTransform attributeName="transform"/></use>',
      ),
    );
    expect(output).toBe(svg('<use href="#a"/>'));
  });

  it('drops foreignObject with everything in it', () => {
    const output = clean(
      svg(
        '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(1)"/></div></foreignObject><circle r="1"/>',
      ),
    );
    expect(output).toBe(svg('<circle r="1"/>'));
  });

  it('drops images, external or embedded', () => {
    const output = clean(
      svg(
        '<image href="https://evil.example/track.png" width="1"/><image href="data:image/png;base64,iVBORw0KGgo="/><filter id="f"><feImage href="https://evil.example/x.png"/></filter>',
      ),
    );
    expect(output).toBe(svg('<filter id="f"/>'));
  });

  it('drops a style attribute whose CSS could load anything, keeps plain paint', () => {
    const output = clean(
      svg(
        '<rect style="fill:red;background-image:url(https://evil.example/x)"/><rect style="fill: url( #g ); stroke: blue; behavior: url(x.htc)"/><rect style="fill:expression(alert(1))"/><rect style="fill:\\75rl(http://x)"/><rect style="fill:blue;position:fixed"/>',
      ),
    );
    expect(output).toBe(
      svg('<rect/><rect/><rect/><rect/><rect style="fill:blue"/>'),
    );
  });

  it('drops a <style> element that imports or loads anything, keeps a plain one', () => {
    expect(
      clean(svg('<style>@import url(https://evil.example/x.css);</style>')),
    ).toBe(svg(''));
    expect(
      clean(svg('<style>rect { fill: url("https://evil.example/x") }</style>')),
    ).toBe(svg(''));
    expect(clean(svg('<style>rect{fill:u/**/rl(x)}</style>'))).toBe(svg(''));
    expect(clean(svg('<style><![CDATA[rect{fill:blue}]]></style>'))).toBe(
      svg('<style>rect{fill:blue}</style>'),
    );
  });

  it('drops url() in presentation attributes unless it names #id', () => {
    const output = clean(
      svg(
        '<rect fill="url(https://evil.example/p)" filter="url(#f)" mask="url(data:x)"/>',
      ),
    );
    expect(output).toBe(svg('<rect filter="url(#f)"/>'));
  });

  it('drops processing instructions (an xml-stylesheet loads CSS), comments and CDATA tricks', () => {
    const output = clean(
      `<?xml version="1.0"?><?xml-stylesheet href="https://evil.example/x.css"?><!-- <script>alert(1)</script> --><svg ${NS}><text><![CDATA[<script>alert(1)</script>]]></text></svg>`,
    );
    expect(output).toBe(
      svg('<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>'),
    );
  });

  it('output of known bypasses never holds anything active', () => {
    const attempts = [
      `<svg ${NS} xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg>`,
      svg('<a href="javascript:alert(1)"><text>x</text></a>'),
      svg('<use href="data:image/svg+xml,&lt;svg onload=alert(1)&gt;"/>'),
      svg('<handler type="application/ecmascript">alert(1)</handler>'),
      svg('<iframe src="https://evil.example"/>'),
      svg('<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>'),
    ];
    for (const attempt of attempts) {
      const output = clean(attempt);
      expect(XMLValidator.validate(output)).toBe(true);
      expect(output).not.toMatch(
        /<script|javascript|<a |<handler|<iframe|onload|data:/i,
      );
    }
    expectInert(clean(attempts[0]));
  });

  describe('known bypasses of filtering sanitizers', () => {
    it.each<[string, string, string]>([
      [
        'xlink rebound to another prefix',
        `<svg ${NS} xmlns:l="http://www.w3.org/1999/xlink"><use l:href="http://evil.example/x.svg#a"/></svg>`,
        svg('<use/>'),
      ],
      [
        'use of another document by a relative or rooted path',
        svg(
          '<use href="other.svg#a"/><use href="/x.svg#a"/><use href="  #a  "/>',
        ),
        svg('<use/><use/><use href="#a"/>'),
      ],
      [
        'CSS url() in capitals, quoted, or spelled with a character reference',
        svg(
          `<rect style="fill:URL(http://evil.example/x)"/><rect fill="URL( 'http://evil.example/x' )"/><rect style="fill:&#x75;rl(http://evil.example)"/><rect fill="&#117;rl(http://evil.example)"/>`,
        ),
        svg('<rect/><rect/><rect/><rect/>'),
      ],
      [
        'a stylesheet import hidden in CDATA, a url() hidden by a CSS escape',
        svg(
          "<style><![CDATA[@import 'http://evil.example/x.css';]]></style><style>rect{fill:u\\72l(http://evil.example)}</style>",
        ),
        svg(''),
      ],
      [
        'a second url() after an in-document one, a url() quoted by a reference',
        svg(
          '<rect fill="url(#a) url(http://evil.example)"/><rect filter="url(&quot;http://evil.example&quot;)"/><rect mask="url(&#x23;a)"/>',
        ),
        svg('<rect/><rect/><rect mask="url(#a)"/>'),
      ],
      [
        'a prefixed inner svg holding script, an inner svg with onload',
        svg(
          '<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg><svg onload="alert(1)"><circle r="1"/></svg>',
        ),
        svg('<svg><circle r="1"/></svg>'),
      ],
      [
        'escaped markup in text, xml:base to another origin',
        svg(
          '<text>&#60;script&#62;alert(1)&#60;/script&#62;</text><rect xml:base="http://evil.example/"/>',
        ),
        svg('<text>&lt;script&gt;alert(1)&lt;/script&gt;</text><rect/>'),
      ],
      [
        'a custom property carrying a url()',
        svg('<use href="#a" style="fill:red;--x:url(http://evil.example)"/>'),
        svg('<use href="#a"/>'),
      ],
      [
        'paint servers and text paths inheriting from another document',
        svg(
          '<linearGradient id="g" href="http://evil.example/g.svg#x"/><pattern xlink:href="data:x"/><textPath href="http://evil.example#p"/>',
        ),
        svg('<linearGradient id="g"/><pattern/><textPath/>'),
      ],
    ])('%s', (_, attempt, expected) => {
      const output = clean(attempt);
      expect(output).toBe(expected);
      // Escaped markup is text: it may spell "script" and run nothing.
      if (!expected.includes('&lt;')) expectInert(output);
    });
  });

  it.each<[string, string, SvgRefusal]>([
    [
      'billion laughs',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>',
      'doctype',
    ],
    [
      'an external entity',
      '<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg>&xxe;</svg>',
      'doctype',
    ],
    ['a lowercase doctype', '<!doctype svg><svg/>', 'doctype'],
    ['an undeclared entity', svg('<text>&xxe;</text>'), 'malformed'],
    ['a bare ampersand', svg('<text>a & b</text>'), 'malformed'],
    ['unclosed elements', svg('<g><rect>'), 'malformed'],
    ['another root', '<html><body/></html>', 'not_svg'],
    [
      'a prefixed root',
      '<x:svg xmlns:x="http://www.w3.org/2000/svg"/>',
      'not_svg',
    ],
    ['plain text', 'not an svg', 'malformed'],
  ])('refuses %s', (_, text, reason) => {
    expect(refusal(text)).toBe(reason);
  });

  it('refuses what is over its byte, element and depth limits', () => {
    const limits = { maxBytes: 200, maxElements: 5, maxDepth: 3 };
    expect(refusal(svg('<rect/>'.repeat(40)), limits)).toBe('too_large');
    expect(refusal(svg('<rect/>'.repeat(5)), limits)).toBe('too_many_elements');
    expect(refusal(svg('<rect/>'.repeat(4)), limits)).toBe('accepted');
    expect(refusal(svg('<g><g><g/></g></g>'), limits)).toBe('too_deep');
    expect(refusal(svg('<g><g/></g>'), limits)).toBe('accepted');
  });

  it('is answered as 400 svg_unsafe', () => {
    const error = new SvgRefusedError('doctype');
    expect(error.getStatus()).toBe(400);
    expect(error.code).toBe('svg_unsafe');
  });
});
