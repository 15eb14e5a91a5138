import { randomBytes } from 'node:crypto';
import { pngHeader } from '../../dev-servers/image-api/png-encoder';
import type { HttpClient } from '../support/http-client';

/**
 * What the image-cost suites share: an image the upstream answers (a PNG
 * signature and header, then random bytes, so nothing compresses it) and the logo
 * request that makes the server read, decode and host it. Its header
 * states 1024×1024, as a model's answer does (sizes are checked).
 */
export const pngOf = (size: number): Buffer => {
  const header = pngHeader(1024, 1024);
  return Buffer.concat([header, randomBytes(size - header.length)]);
};

/** POST /api/ai/generate-logo with a valid body naming `companyName`. */
export const requestLogo = (client: HttpClient, companyName: string) =>
  client.send({
    method: 'POST',
    path: '/api/ai/generate-logo',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      projectId: 'p1',
      companyName,
      style: 'modern',
      colors: ['navy'],
    }),
  });

/** The path of the hosted logo a generate-logo answer names. */
export const hostedLogoPath = (answerText: string): string =>
  new URL((JSON.parse(answerText) as { logoUrl: string }).logoUrl).pathname;
