import { carriesNoBody } from './json-body.guard';

const request = (headers: Record<string, string>) => ({ headers });

describe('carriesNoBody (a POST whose body is optional needs no Content-Type without one)', () => {
  it('is true without Transfer-Encoding and with no or a zero Content-Length', () => {
    expect(carriesNoBody(request({}), undefined)).toBe(true);
    expect(carriesNoBody(request({ 'content-length': '0' }), 0)).toBe(true);
  });

  it('is false for a body of any length, or chunked', () => {
    expect(carriesNoBody(request({ 'content-length': '2' }), 2)).toBe(false);
    expect(
      carriesNoBody(request({ 'transfer-encoding': 'chunked' }), undefined),
    ).toBe(false);
    // Chunked with a zero length still says a body follows in chunks.
    expect(
      carriesNoBody(
        request({ 'transfer-encoding': 'chunked', 'content-length': '0' }),
        0,
      ),
    ).toBe(false);
  });

  it('is false for a Content-Length that is not a number (never read as "no body")', () => {
    expect(carriesNoBody(request({ 'content-length': 'x' }), undefined)).toBe(
      false,
    );
  });
});
