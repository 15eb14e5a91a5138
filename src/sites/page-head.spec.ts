import { headTags, rewriteHead, type SiteHead } from './page-head';

const SITE: SiteHead = {
  url: 'https://sites.example.com/p/',
  title: 'Acme "Rockets" <b>',
  description: 'Fast & cheap',
  icons: { favicon: true, appleTouch: true, png192: false, png512: true },
  ogImage: true,
};

describe('page head', () => {
  it('links only the icons the site holds, and makes og:image absolute on the site', () => {
    const tags = headTags(SITE);
    const links = tags.filter((t) => t.tag === 'link').map((t) => t.attrs.href);
    expect(links).toEqual([
      'favicon.ico',
      'icon-512.png',
      'apple-touch-icon.png',
    ]);
    expect(tags).toContainEqual({
      tag: 'meta',
      attrs: {
        property: 'og:image',
        content: 'https://sites.example.com/p/og.png',
      },
    });
    expect(tags).toContainEqual({
      tag: 'meta',
      attrs: { name: 'twitter:card', content: 'summary_large_image' },
    });
    const bare = headTags({
      ...SITE,
      description: null,
      icons: {
        favicon: false,
        appleTouch: false,
        png192: false,
        png512: false,
      },
      ogImage: false,
    });
    expect(bare.map((t) => t.attrs.property ?? t.attrs.name)).toEqual([
      'og:type',
      'og:title',
      'og:url',
      'twitter:card',
    ]);
  });

  it("replaces the page's own icons and cards, escapes the values, keeps the rest", async () => {
    const page = `<!doctype html><html><head><title>T</title>
<link rel="shortcut icon" href="/old.ico"><link rel="stylesheet" href="s.css">
<meta property="og:title" content="Old"><meta name="twitter:site" content="@x">
<meta name="description" content="kept"></head><body><p>Body</p></body></html>`;
    const html = await rewriteHead(page, headTags(SITE));
    expect(html).not.toContain('old.ico');
    expect(html).not.toContain('Old');
    expect(html).not.toContain('@x');
    expect(html).toContain('<link rel="stylesheet" href="s.css">');
    expect(html).toContain('<meta name="description" content="kept">');
    expect(html).toContain(
      '<meta property="og:title" content="Acme &quot;Rockets&quot; &lt;b&gt;">',
    );
    expect(html).toContain(
      '<meta property="og:description" content="Fast &amp; cheap">',
    );
    expect(html).toContain('<p>Body</p>');
  });

  it('gives a page without a head one', async () => {
    const html = await rewriteHead('<p>Only a paragraph</p>', headTags(SITE));
    expect(html).toMatch(/^<html><head><link rel="icon" href="favicon.ico">/);
    expect(html).toContain('<body><p>Only a paragraph</p></body>');
  });
});
