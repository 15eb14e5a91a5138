import { createHash } from 'node:crypto';
import request from 'supertest';
import type { TestApp } from './test-app';

/** A kept logo as the API answers it. */
export interface AssetBody {
  id: string;
  projectId: string;
  sectionId: string | null;
  kind: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  url: string;
  prompt: string;
  model: string;
  createdAt: string;
  fileName: string;
  width: number | null;
  height: number | null;
  thumbnailUrl: string | null;
}

export const LOGO_REQUEST = {
  companyName: 'Acme Rockets',
  style: 'geometric',
  colors: ['navy', '#ffd700'],
};

export const sha256 = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest('hex');

/** POST /api/projects/{id}/logos. */
export const keepLogo = (t: TestApp, projectId: string, body = LOGO_REQUEST) =>
  request(t.server).post(`/api/projects/${projectId}/logos`).send(body);

/** The path and query of an absolute asset url, to ask the app under test. */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** GET of a url's bytes, kept as a Buffer whatever their type. */
export const getBytes = (t: TestApp, path: string) =>
  request(t.server)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
