import { redactedUrl } from './url-redaction';

describe('redactedUrl (the URL a request line logs)', () => {
  it.each([
    [
      'a stream ticket',
      '/api/events?ticket=eyJhbGciOi.abc.def&lastEventId=4',
      '/api/events?ticket=[redacted]&lastEventId=4',
    ],
    [
      "a signed asset URL's signature",
      '/api/projects/p1/assets/a1/content?size=64&expires=1795900000&signature=Zm9vYmFy',
      '/api/projects/p1/assets/a1/content?size=64&expires=1795900000&signature=[redacted]',
    ],
    [
      'an access token',
      '/api/projects?access_token=tok-123&limit=5',
      '/api/projects?access_token=[redacted]&limit=5',
    ],
    [
      'a parameter name in another case or percent-encoded',
      '/api/events?TICKET=t1&%74oken=t2',
      '/api/events?TICKET=[redacted]&%74oken=[redacted]',
    ],
    [
      'a repeated ticket',
      '/api/events?ticket=a&ticket=b',
      '/api/events?ticket=[redacted]&ticket=[redacted]',
    ],
  ])('replaces %s with [redacted]', (_case, url, logged) => {
    expect(redactedUrl(url)).toBe(logged);
  });

  it('keeps a URL without credentials as sent', () => {
    const url = '/api/projects?limit=5&cursor=abc%3D&userId=u1';
    expect(redactedUrl(url)).toBe(url);
    expect(redactedUrl('/api/projects/p1')).toBe('/api/projects/p1');
  });
});
