import type { Request, Response } from 'express';
import { undecodablePathMiddleware } from './undecodable-path.middleware';

function rewrite(url: string): string {
  const request = { url } as Request;
  undecodablePathMiddleware(request, {} as Response, () => undefined);
  return request.url;
}

describe('undecodablePathMiddleware', () => {
  it('escapes the % of a segment that cannot be decoded, so it reads literally', () => {
    expect(rewrite('/api/projects/%zz')).toBe('/api/projects/%25zz');
    expect(decodeURIComponent(rewrite('/api/projects/%E0%A4%A'))).toBe(
      '/api/projects/%E0%A4%A',
    );
  });

  it('leaves decodable segments and the query string alone', () => {
    expect(rewrite('/api/projects/a%20b?userId=%')).toBe(
      '/api/projects/a%20b?userId=%',
    );
    expect(rewrite('/api/projects/%?userId=%zz')).toBe(
      '/api/projects/%25?userId=%zz',
    );
  });
});
