import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  matchedRoute,
  requestIdFor,
  requestLogFields,
  requestLogMessage,
  scrubSecret,
} from './request-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request log helpers', () => {
  it('keeps a plausible X-Request-Id from the caller', () => {
    expect(requestIdFor('frontend-7f3a:42')).toBe('frontend-7f3a:42');
  });

  it('generates a UUID when there is no X-Request-Id', () => {
    expect(requestIdFor(undefined)).toMatch(UUID);
  });

  it.each([
    ['a line break that could forge a log line', 'abc\n{"level":50}'],
    ['a value over 128 characters', 'x'.repeat(129)],
    ['an empty value', ''],
    ['a repeated header', ['a', 'b']],
  ])('replaces an X-Request-Id with %s by a new UUID', (_case, header) => {
    expect(requestIdFor(header)).toMatch(UUID);
  });

  it('names the matched route template, never the concrete path', () => {
    const request = {
      baseUrl: '',
      route: { path: '/api/projects/:id' },
    } as unknown as IncomingMessage;
    expect(matchedRoute(request)).toBe('/api/projects/:id');
  });

  it('has no route for a request no route matched', () => {
    expect(matchedRoute({} as IncomingMessage)).toBeUndefined();
  });

  it('logs method, route, url, status and duration', () => {
    const request = {
      method: 'GET',
      originalUrl: '/api/projects/42',
      route: { path: '/api/projects/:id' },
    } as unknown as IncomingMessage;
    const response = {
      statusCode: 404,
      writableFinished: true,
    } as ServerResponse;
    expect(requestLogFields(request, response, 12)).toEqual({
      method: 'GET',
      route: '/api/projects/:id',
      url: '/api/projects/42',
      status: 404,
      durationMs: 12,
    });
  });

  it('records 499 and "request aborted" for an answer that was never completed', () => {
    const request = { method: 'POST', url: '/api/projects' } as IncomingMessage;
    const response = {
      statusCode: 201,
      writableFinished: false,
    } as ServerResponse;
    expect(requestLogFields(request, response, 5)).toMatchObject({
      status: 499,
    });
    expect(requestLogMessage(response)).toBe('request aborted');
  });

  it('replaces every occurrence of the secret in a line', () => {
    expect(scrubSecret('a sk-123 b sk-123', 'sk-123')).toBe(
      'a [redacted] b [redacted]',
    );
  });

  it('leaves a line alone when there is no secret', () => {
    expect(scrubSecret('a line', undefined)).toBe('a line');
  });
});
