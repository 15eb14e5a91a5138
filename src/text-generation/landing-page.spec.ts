import {
  LOGO_PLACEHOLDER,
  landingPageMessages,
  parseLandingPage,
} from './landing-page';

const PAGE = `<!doctype html><html><body><img src="${LOGO_PLACEHOLDER}" alt="x"></body></html>`;

describe('landing page', () => {
  it('takes the document out of a ```html fence and inlines the logo', () => {
    const html = parseLandingPage(
      '```html\n' + PAGE + '\n```',
      'data:image/png;base64,AAAA',
    );
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('src="data:image/png;base64,AAAA"');
    expect(html).not.toContain(LOGO_PLACEHOLDER);
  });

  it('refuses an answer that is not an HTML document', () => {
    expect(() => parseLandingPage('Sure! Here is a page.', undefined)).toThrow(
      'not an HTML document',
    );
    expect(() =>
      parseLandingPage('<!doctype html><html><body>', undefined),
    ).toThrow('not an HTML document');
  });

  it('asks for the logo by its placeholder only when there is one', () => {
    const product = { name: 'Acme', description: null };
    expect(landingPageMessages(product, undefined, true)[0].content).toContain(
      LOGO_PLACEHOLDER,
    );
    expect(
      landingPageMessages(product, undefined, false)[0].content,
    ).not.toContain(LOGO_PLACEHOLDER);
  });

  it('asks for exactly the wireframe sections given, in their order, and for no wireframe without them', () => {
    const product = { name: 'Acme', description: null };
    const sections = ['1. hero: heading "Hi"', '2. faq: heading "Questions"'];
    const [system, user] = landingPageMessages(
      product,
      undefined,
      false,
      sections,
    );
    expect(system.content).toContain(
      'build exactly its 2 sections, in the order listed',
    );
    expect(user.content).toContain(
      'Wireframe sections, in order:\n1. hero: heading "Hi"\n2. faq: heading "Questions"',
    );
    const plain = landingPageMessages(product, undefined, false);
    expect(plain.map((m) => m.content).join('\n')).not.toMatch(/wireframe/i);
  });
});
