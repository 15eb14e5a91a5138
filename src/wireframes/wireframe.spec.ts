import { TextApiCallError } from '../text-generation/text-api-call.error';
import {
  parseWireframe,
  readKeptWireframe,
  WIREFRAME_LIMITS,
} from './wireframe';
import { wireframeOutline } from './wireframe-outline';

const section = (overrides: Record<string, unknown> = {}) => ({
  type: 'hero',
  heading: 'Ship faster',
  body: 'Everything your team needs.',
  items: null,
  cta: { label: 'Start free' },
  ...overrides,
});
const answer = (pages: unknown[]) => JSON.stringify({ pages });
const page = (name: string, sections: unknown[] = [section()]) => ({
  name,
  sections,
});

const invalid = (content: string, pages = ['home']) => {
  try {
    parseWireframe(content, pages);
  } catch (error) {
    expect(error).toBeInstanceOf(TextApiCallError);
    expect((error as TextApiCallError).code).toBe('invalid_answer');
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('wireframe answers', () => {
  it('keeps a valid answer with its nulls left out', () => {
    const wireframe = parseWireframe(
      answer([
        page('home', [
          section(),
          section({
            type: 'features',
            body: null,
            cta: null,
            items: [
              { title: 'Fast', text: null },
              { title: 'Safe', text: 'Yes' },
            ],
          }),
        ]),
      ]),
      ['home'],
    );
    expect(wireframe).toEqual({
      pages: [
        {
          name: 'home',
          sections: [
            {
              type: 'hero',
              heading: 'Ship faster',
              body: 'Everything your team needs.',
              cta: { label: 'Start free' },
            },
            {
              type: 'features',
              heading: 'Ship faster',
              items: [{ title: 'Fast' }, { title: 'Safe', text: 'Yes' }],
            },
          ],
        },
      ],
    });
  });

  it('refuses an answer that is not JSON or not an object', () => {
    expect(invalid('Sure! Here is a wireframe')).toContain('not JSON');
    expect(invalid('[]')).toContain('not an object');
  });

  it('refuses pages other than the ones asked for, in their order', () => {
    expect(invalid(answer([page('home')]), ['home', 'pricing'])).toContain(
      'pages has 1 items',
    );
    expect(
      invalid(answer([page('pricing'), page('home')]), ['home', 'pricing']),
    ).toContain('pages[0].name is not "home"');
  });

  it('refuses an unknown section type, unexpected fields and empty text', () => {
    expect(
      invalid(answer([page('home', [section({ type: 'video' })])])),
    ).toContain('type is not a known section type');
    expect(
      invalid(answer([page('home', [section({ script: 'x' })])])),
    ).toContain('unexpected fields script');
    expect(
      invalid(answer([page('home', [section({ heading: ' ' })])])),
    ).toContain('heading is not a non-empty string');
  });

  it('refuses an answer past its bounds: sections, items, text lengths', () => {
    const L = WIREFRAME_LIMITS;
    expect(
      invalid(
        answer([page('home', Array(L.sectionsPerPage + 1).fill(section()))]),
      ),
    ).toContain('sections has 13 items');
    expect(invalid(answer([page('home', [])]))).toContain(
      'sections has 0 items',
    );
    expect(
      invalid(
        answer([
          page('home', [
            section({
              items: Array(L.itemsPerSection + 1).fill({
                title: 'a',
                text: null,
              }),
            }),
          ]),
        ]),
      ),
    ).toContain('items has 9 items');
    expect(
      invalid(
        answer([
          page('home', [section({ heading: 'h'.repeat(L.heading + 1) })]),
        ]),
      ),
    ).toContain(`longer than ${L.heading}`);
    expect(
      invalid(
        answer([
          page('home', [
            section({ cta: { label: 'l'.repeat(L.ctaLabel + 1) } }),
          ]),
        ]),
      ),
    ).toContain(`longer than ${L.ctaLabel}`);
  });

  it('reads a kept wireframe back, and nothing else', () => {
    const kept = {
      pages: [{ name: 'home', sections: [{ type: 'faq', heading: 'Q' }] }],
    };
    expect(readKeptWireframe(Buffer.from(JSON.stringify(kept)))).toEqual(kept);
    expect(readKeptWireframe(Buffer.from('{"tagline":"x"}'))).toBeUndefined();
    expect(readKeptWireframe(Buffer.from('{"pages":[]}'))).toBeUndefined();
    expect(readKeptWireframe(Buffer.from('not json'))).toBeUndefined();
  });

  it("outlines the home page's sections in order for a landing page, the first page without one", () => {
    const wireframe = {
      pages: [
        {
          name: 'pricing',
          sections: [{ type: 'pricing' as const, heading: 'Plans' }],
        },
        {
          name: 'home',
          sections: [
            {
              type: 'hero' as const,
              heading: 'Hi',
              body: 'Copy',
              cta: { label: 'Go' },
            },
            {
              type: 'faq' as const,
              heading: 'Questions',
              items: [{ title: 'Why?', text: 'Because' }],
            },
          ],
        },
      ],
    };
    expect(wireframeOutline(wireframe)).toEqual([
      '1. hero: heading "Hi"; copy "Copy"; button "Go"',
      '2. faq: heading "Questions"; items "Why?" ("Because")',
    ]);
    expect(wireframeOutline({ pages: [wireframe.pages[0]] })).toEqual([
      '1. pricing: heading "Plans"',
    ]);
  });
});
