import { keyRedactor } from './key-redaction';

const KEY = 'sk-proj-Zq7fK2mW9xT4bN8cL1vR5yH3abcd';
const redact = keyRedactor(KEY);

describe('keyRedactor: the image-API key in every form an upstream could echo it', () => {
  it.each([
    ['exact', `Incorrect API key provided: ${KEY}.`],
    ['base64', `auth=${Buffer.from(KEY).toString('base64')}`],
    [
      'base64 without padding',
      `auth=${Buffer.from(KEY).toString('base64').replace(/=+$/, '')}`,
    ],
    ['base64url', `token ${Buffer.from(KEY).toString('base64url')} rejected`],
    ['URL-encoded', `url?key=${encodeURIComponent(KEY)}&x=1`],
    [
      'masked with prefix and suffix (sk-...abcd)',
      'Incorrect API key provided: sk-...abcd.',
    ],
    [
      'masked as OpenAI prints it (sk-proj-****…abcd)',
      'Incorrect API key provided: sk-proj-****************************abcd. You can find your API key at https://platform.openai.com/account/api-keys.',
    ],
    ['masked with an ellipsis (…abcd)', 'key …abcd is not valid'],
    ['masked with the prefix only (sk-proj-***)', 'key sk-proj-*** is revoked'],
    ['masked with bullets (sk-••••abcd)', 'key sk-••••abcd is revoked'],
  ])('removes the key %s', (_form, text) => {
    const out = redact(text);
    expect(out).toContain('[redacted]');
    expect(out).not.toContain(KEY);
    expect(out).not.toMatch(/abcd/);
    expect(out).not.toContain(Buffer.from(KEY).toString('base64').slice(0, 20));
    expect(out).not.toContain(encodeURIComponent(KEY).slice(0, 20));
  });

  it('removes a URL-encoded key whose characters change when encoded, in either case', () => {
    const key = 'sk-a+b/c=d:e0123456789';
    const encoded = encodeURIComponent(key);
    expect(encoded).not.toBe(key);
    const out = keyRedactor(key)(`?k=${encoded}&l=${encoded.toLowerCase()}`);
    expect(out).toBe('?k=[redacted]&l=[redacted]');
  });

  it('leaves text without the key alone, masks of other keys included', () => {
    const text =
      'Rate limit reached for gpt-image... try again in 20s; key ab-...wxyz; see https://example.com/a...b';
    expect(redact(text)).toBe(text);
  });

  it('does nothing without a key', () => {
    expect(keyRedactor(undefined)('sk-...abcd')).toBe('sk-...abcd');
  });
});
