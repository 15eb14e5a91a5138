import { LUCIDE_MODEL, lucideIcon } from './lucide-icons';

describe('lucideIcon', () => {
  it('reads a Lucide icon by its name, with its ISC licence line', async () => {
    const icon = await lucideIcon('shopping-cart');
    expect(icon).toContain('@license lucide-static v1.62.0 - ISC');
    expect(icon).toContain('<svg');
  });

  it('has nothing for a name Lucide lacks or one that is not a kebab name (no path walks out)', async () => {
    for (const name of [
      'cart',
      '../package',
      'Search',
      'a/b',
      '',
      'x'.repeat(41),
    ]) {
      expect(await lucideIcon(name)).toBeUndefined();
    }
  });

  it('names the package, its version and licence as the model', () => {
    expect(LUCIDE_MODEL).toBe('lucide-static 1.62.0 (ISC)');
  });
});
