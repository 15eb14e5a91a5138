import type { MarketingCopy, ProductText } from './marketing-copy';

/**
 * The lines of a user message that state the product: its name and
 * description, and its latest marketing copy when there is one. Every
 * request that writes about the product (a page, a wireframe) sends the
 * same facts, worded the same, so the models see one product.
 */
export function productFacts(
  product: ProductText,
  copy: MarketingCopy | undefined,
): string[] {
  return [
    `Name: ${product.name}`,
    `Description: ${product.description ?? '(none)'}`,
    ...(copy
      ? [
          `Tagline: ${copy.tagline}`,
          `About: ${copy.description}`,
          `Highlights: ${copy.posts.join(' | ')}`,
        ]
      : []),
  ];
}
