import { isPassableImageUrl } from './passed-on-image-url';

const OPENAI = 'https://api.openai.com/v1/images/generations';
const LOCAL = 'http://127.0.0.1:4010/v1/images/generations';

describe('isPassableImageUrl', () => {
  it.each([
    'https://images.example.test/generated/logo.png',
    'https://oaidalleapiprodscus.blob.core.windows.net/private/img.png?sig=x',
    'https://1.1.1.1/logo.png',
    'https://[2606:4700::1111]/logo.png',
  ])('passes an https URL to a public host on: %s', (url) => {
    expect(isPassableImageUrl(url, OPENAI)).toBe(true);
  });

  it.each([
    'javascript:alert(document.domain)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/png;base64,iVBORw0KGgo=',
    'file:///etc/passwd',
    'http://images.example.com/logo.png',
    'https://169.254.169.254/latest/meta-data/',
    'https://2852039166/latest/meta-data/',
    'https://0xa9fea9fe/',
    'https://0251.0376.0251.0376/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://127.0.0.1/',
    'https://127.1/',
    'https://0/',
    'https://0.0.0.0/',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://[::1]/',
    'https://[::]/',
    'https://[fe80::1]/',
    'https://[fd00::1]/',
    'https://[ff02::1]/',
    'https://localhost/',
    'https://LOCALHOST./',
    'https://app.localhost/',
    'https://printer.local/',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://intranet/',
    'https://user:pass@images.example.com/logo.png',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isPassableImageUrl(url, OPENAI)).toBe(false);
  });

  it("passes any URL of IMAGE_API_URL's own origin, which the operator chose", () => {
    expect(
      isPassableImageUrl('http://127.0.0.1:4010/images/a.svg', LOCAL),
    ).toBe(true);
  });

  it("refuses a private address on another port than IMAGE_API_URL's", () => {
    expect(
      isPassableImageUrl('http://127.0.0.1:4011/images/a.svg', LOCAL),
    ).toBe(false);
    expect(
      isPassableImageUrl('https://169.254.169.254/latest/meta-data/', LOCAL),
    ).toBe(false);
  });
});
