import { applyDecorators } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';

type Headers = Record<string, { description: string; schema: object }>;

const BINARY = { schema: { type: 'string', format: 'binary' } };

/**
 * The answers of a route that serves image bytes the service keeps (a
 * hosted logo, a kept logo): 200 with PNG, JPEG or WebP bytes, 304 to
 * If-None-Match, both with `headers`; failures stay JSON.
 */
export function ApiImageBytes(
  description: { ok: string; notModified: string },
  headers: Headers,
) {
  return applyDecorators(
    ApiProduces(
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/x-icon',
      'application/json',
    ),
    ApiResponse({
      status: 200,
      description: description.ok,
      headers,
      content: {
        'image/png': BINARY,
        'image/jpeg': BINARY,
        'image/webp': BINARY,
        'image/x-icon': BINARY,
      },
    }),
    ApiResponse({
      status: 304,
      description: description.notModified,
      headers,
    }),
  );
}
