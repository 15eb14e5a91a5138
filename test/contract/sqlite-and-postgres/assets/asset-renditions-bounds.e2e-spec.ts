import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { createServer, get, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { ladderStepFor } from '../../../../src/assets/renditions/rendition-ladder';
import { pathOf, type AssetBody } from '../../../support/asset-client';
import { DevImageApi, type FakeReply } from '../../../support/fake-image-api';
import {
  megabytes,
  peakResidentBytes,
  residentBytes,
} from '../../../support/process-memory';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';
import {
  createTestDatabase,
  TEST_DATABASE,
  type TestDatabase,
} from '../../../support/test-database';

/**
 * What one asset's renditions (…/content?size=N) may cost: sizes come from
 * a fixed ladder, each made once per asset and step; the work waits in a
 * bounded line that holds ids, not images, and is dropped when every
 * client waiting for it has left. The logo is a 1024×1024 noise PNG (the
 * dearest to compress), answered by the dev image API. Runs on SQLite and
 * PostgreSQL.
 */

const MB = 1024 * 1024;

/** A 1024×1024 PNG of random pixels: about 3 MB that no encoder can shrink. */
async function noisePng(): Promise<Buffer> {
  const side = 1024;
  return sharp(randomBytes(side * side * 3), {
    raw: { width: side, height: side, channels: 3 },
  })
    .png()
    .toBuffer();
}

/** The GPT image answer of the dev image API: the noise PNG as base64. */
const answering = (png: Buffer): FakeReply => ({
  status: 200,
  json: {
    created: 1_700_000_000,
    data: [{ b64_json: png.toString('base64') }],
  },
});

const IMAGE_ENV = (api: DevImageApi) => ({
  IMAGE_API_KEY: 'sk-test',
  IMAGE_API_URL: api.url,
  IMAGE_MODEL: 'gpt-image-2.5-sunburst',
});

/** 40 distinct sizes from 16 to 1024. */
const FORTY_SIZES = Array.from({ length: 40 }, (_, i) =>
  Math.min(1024, 16 + Math.round((i * 1008) / 39)),
);

function metric(text: string, name: string): number {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

describe('Asset renditions: bounded cost', () => {
  let api: DevImageApi;

  beforeAll(async () => {
    api = await DevImageApi.start({
      defaultReply: answering(await noisePng()),
    });
  });
  afterAll(() => api?.close());

  describe('in an app built from AppModule', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({
        ...IMAGE_ENV(api),
        // One client asks for 20 renditions at once below.
        RENDITION_CLIENT_LIMIT: '32',
      });
    });
    afterAll(() => t?.close());

    async function keptNoiseLogo(): Promise<AssetBody> {
      const created = await request(t.server)
        .post('/api/projects')
        .send({ name: 'Noise', userId: 'user-1' })
        .expect(201);
      const kept = await request(t.server)
        .post(`/api/projects/${created.body.project.id as string}/logos`)
        .send({ companyName: 'Noise', style: 'modern', colors: ['#000000'] })
        .expect(201);
      return kept.body.asset as AssetBody;
    }

    /** The bytes the database takes: its files on SQLite, its size on PostgreSQL. */
    async function databaseBytes(): Promise<number> {
      if (TEST_DATABASE === 'postgres') {
        const [row] = await t.dataSource.query<Array<{ bytes: string }>>(
          'SELECT pg_database_size(current_database()) AS "bytes"',
        );
        return Number(row.bytes);
      }
      const file = t.databaseUrl.replace(/^file:/, '');
      return [file, `${file}-wal`]
        .map((path) => statSync(path, { throwIfNoEntry: false })?.size ?? 0)
        .reduce((sum, size) => sum + size, 0);
    }

    const metrics = async () =>
      (await request(t.server).get('/metrics').expect(200)).text;

    it('40 distinct sizes of one asset grow the database by at most 24 MB: each is served by a ladder step, made once', async () => {
      const asset = await keptNoiseLogo();
      const before = await databaseBytes();
      const madeBefore = metric(await metrics(), 'asset_renditions_made_total');
      for (const size of FORTY_SIZES) {
        const res = await request(t.server)
          .get(`${pathOf(asset.url)}?size=${size}`)
          .buffer(true)
          .parse((response, done) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200)
          .expect('Content-Type', 'image/png');
        const { width, height } = await sharp(res.body as Buffer).metadata();
        expect({ size, width, height }).toEqual({
          size,
          width: ladderStepFor(size),
          height: ladderStepFor(size),
        });
      }
      const grown = (await databaseBytes()) - before;
      const made =
        metric(await metrics(), 'asset_renditions_made_total') - madeBefore;
      process.stdout.write(
        `40 sizes of a 1024² noise PNG on ${TEST_DATABASE}: database +${megabytes(grown)}, ${made} renditions made\n`,
      );
      expect(made).toBe(new Set(FORTY_SIZES.map(ladderStepFor)).size);
      expect(grown).toBeLessThanOrEqual(24 * MB);
    });

    it('a size between two steps is the next step up: the same PNG and ETag as that step', async () => {
      const asset = await keptNoiseLogo();
      const between = await request(t.server)
        .get(`${pathOf(asset.url)}?size=33`)
        .expect(200);
      const step = await request(t.server)
        .get(`${pathOf(asset.url)}?size=48`)
        .expect(200);
      expect(between.headers.etag).toBe(step.headers.etag);
    });

    it('renditions whose clients all left before their turn are never made', async () => {
      const assets = [await keptNoiseLogo(), await keptNoiseLogo()];
      const listening = createServer(t.server.listeners('request')[0]);
      await new Promise<void>((resolve) =>
        listening.listen(0, '127.0.0.1', resolve),
      );
      const { port } = listening.address() as AddressInfo;
      const before = await metrics();
      const madeBefore = metric(before, 'asset_renditions_made_total');
      const droppedBefore = metric(before, 'asset_renditions_dropped_total');
      // 20 renditions (two assets, ten steps), each asked for by a client
      // that leaves before its answer.
      const sizes = [16, 32, 48, 64, 128, 180, 192, 256, 512, 1024];
      const clients: ClientRequest[] = assets.flatMap((asset) =>
        sizes.map((size) => {
          const client = get(
            `http://127.0.0.1:${port}${pathOf(asset.url)}?size=${size}`,
          );
          client.on('error', () => undefined);
          return client;
        }),
      );
      // Every one is in line, or already made.
      for (;;) {
        const text = await metrics();
        const admitted =
          metric(text, 'asset_renditions_in_line') +
          metric(text, 'asset_renditions_made_total') -
          madeBefore;
        if (admitted >= clients.length) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // Every client leaves at once, then the count is read: a rendition
      // that finished while /metrics was being asked counts as made before
      // they left, not after.
      for (const client of clients) client.destroy();
      const madeAtLeave =
        metric(await metrics(), 'asset_renditions_made_total') - madeBefore;
      while (metric(await metrics(), 'asset_renditions_in_line') > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const after = await metrics();
      const made = metric(after, 'asset_renditions_made_total') - madeBefore;
      const dropped =
        metric(after, 'asset_renditions_dropped_total') - droppedBefore;
      process.stdout.write(
        `20 renditions whose clients left: ${madeAtLeave} made before they left, ${made} in all, ${dropped} dropped\n`,
      );
      // Only those being made while the clients left (two at a time) may
      // still finish; the rest are dropped unmade.
      expect(made - madeAtLeave).toBeLessThanOrEqual(4);
      expect(dropped).toBeGreaterThan(0);
      expect(made + dropped).toBe(clients.length);
      await new Promise((resolve) => listening.close(resolve));
    });
  });

  describe('in the built server', () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;

    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await server?.stop();
      await database?.drop();
    });

    it('200 concurrent rendition requests of one asset grow the server process’s peak RSS by at most 192 MB', async () => {
      server = await startServer({
        ...IMAGE_ENV(api),
        DATABASE_URL: database.url,
        // 200 requests from one address: this is about memory, not the line.
        RENDITION_CLIENT_LIMIT: '200',
      });
      const created = await request(server.baseUrl)
        .post('/api/projects')
        .send({ name: 'Noise', userId: 'user-1' })
        .expect(201);
      const kept = await request(server.baseUrl)
        .post(`/api/projects/${created.body.project.id as string}/logos`)
        .send({ companyName: 'Noise', style: 'modern', colors: ['#000000'] })
        .expect(201);
      const path = pathOf((kept.body.asset as AssetBody).url);
      const before = residentBytes(server.pid);
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          request(server!.baseUrl)
            .get(`${path}?size=${16 + ((i * 5) % 1009)}`)
            .then((res) => res.status),
        ),
      );
      const grown = peakResidentBytes(server.pid) - before;
      process.stdout.write(
        `200 concurrent renditions on ${TEST_DATABASE}: RSS ${megabytes(before)}, peak +${megabytes(grown)}\n`,
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      expect(grown).toBeLessThanOrEqual(192 * MB);
    }, 90_000);
  });
});
