import { quoteOf } from './run-quote';

describe('a run quote', () => {
  it('counts image calls: the logo candidates, every icon (an upper bound), the hero when asked; brand kit none', () => {
    expect(
      quoteOf(
        ['logo', 'icon-set', 'brand-kit', 'graphics'],
        {
          logo: { count: 3 },
          'icon-set': { names: ['house', 'rocket-ship'] },
          graphics: { formats: ['og', 'hero'] },
        },
        2,
      ),
    ).toEqual({ imageCalls: 6, textCalls: 0, maxFixes: 0 });
    expect(
      quoteOf(['logo', 'graphics'], { logo: {}, graphics: {} }, 2).imageCalls,
    ).toBe(1);
  });

  it('counts one text call per copy, wireframe and page, and one per fix when the site is checked', () => {
    expect(
      quoteOf(['marketing-copy', 'wireframe', 'landing-page'], {}, 2),
    ).toEqual({ imageCalls: 0, textCalls: 3, maxFixes: 0 });
    expect(
      quoteOf(
        [
          'marketing-copy',
          'wireframe',
          'landing-page',
          'site-check',
          'publish',
        ],
        {},
        2,
      ),
    ).toEqual({ imageCalls: 0, textCalls: 5, maxFixes: 2 });
  });
});
