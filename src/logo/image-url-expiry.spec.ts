import { expiryOfImageUrl } from './image-url-expiry';

describe('expiryOfImageUrl', () => {
  it("reads an Azure SAS URL's se (OpenAI's image URLs)", () => {
    expect(
      expiryOfImageUrl(
        'https://oaidalleapiprodscus.blob.core.windows.net/private/img.png?st=2026-11-29T02%3A00%3A00Z&se=2026-11-29T04%3A00%3A00Z&sp=r&sig=abc',
      )?.toISOString(),
    ).toBe('2026-11-29T04:00:00.000Z');
  });

  it('adds X-Amz-Expires to X-Amz-Date, and X-Goog-Expires to X-Goog-Date', () => {
    expect(
      expiryOfImageUrl(
        'https://bucket.s3.amazonaws.com/a.png?X-Amz-Date=20261129T030000Z&X-Amz-Expires=3600&X-Amz-Signature=x',
      )?.toISOString(),
    ).toBe('2026-11-29T04:00:00.000Z');
    expect(
      expiryOfImageUrl(
        'https://storage.googleapis.com/b/a.png?X-Goog-Date=20261129T030000Z&X-Goog-Expires=600',
      )?.toISOString(),
    ).toBe('2026-11-29T03:10:00.000Z');
  });

  it('reads Expires as epoch seconds', () => {
    expect(
      expiryOfImageUrl(
        'https://cdn.example.com/a.png?Expires=1796000000',
      )?.getTime(),
    ).toBe(1_796_000_000_000);
  });

  it('says nothing for a URL that states no expiry, or one it cannot read', () => {
    expect(
      expiryOfImageUrl('https://images.example.com/a.png'),
    ).toBeUndefined();
    expect(expiryOfImageUrl('https://x.example/a.png?se=soon')).toBeUndefined();
    expect(
      expiryOfImageUrl(
        'https://x.example/a.png?X-Amz-Date=bad&X-Amz-Expires=60',
      ),
    ).toBeUndefined();
    expect(expiryOfImageUrl('not a url')).toBeUndefined();
  });
});
