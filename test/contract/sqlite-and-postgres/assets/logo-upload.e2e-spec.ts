import sharp from 'sharp';
import request from 'supertest';
import { SVG_POLICY } from '../../../../src/common/http/send-image';
import { AssetSizesBackfill } from '../../../../src/assets/asset-sizes';
import {
  getBytes,
  pathOf,
  sha256,
  type AssetBody,
} from '../../../support/asset-client';
import {
  createProject,
  type ProjectBody,
} from '../../../support/project-fixtures';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A team's own logo: POST /api/projects/{id}/logos as multipart/form-data
 * (one `file` part), its type told from the bytes, bounded in bytes and
 * pixels, an SVG rebuilt from an allow-list and served sandboxed, kept as
 * an asset as a generated logo is (same answer, same Idempotency-Key
 * behaviour). Runs on SQLite and PostgreSQL.
 */
const MAX_BYTES = 64 * 1024;
const MAX_PIXELS = 400 * 400;

const pngOf = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 4, background: '#0044ff' },
  })
    .png()
    .toBuffer();

/** A PNG signature and header claiming a size, with no pixels behind it. */
function pngHeaderOf(width: number, height: number): Buffer {
  const bytes = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  bytes.writeUInt32BE(13, 8);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes;
}

/** Each request reaches the app on a port of its own: urls compared by path. */
const withoutOrigin = (asset: AssetBody) => ({
  ...asset,
  url: pathOf(asset.url),
  thumbnailUrl: asset.thumbnailUrl && pathOf(asset.thumbnailUrl),
});

const SVG_WITH_SCRIPT = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="#0044ff"/></svg>',
);

describe('Uploading a logo (multipart/form-data)', () => {
  let t: TestApp;
  let project: ProjectBody;

  beforeAll(async () => {
    t = await createTestApp({
      ASSET_UPLOAD_MAX_BYTES: String(MAX_BYTES),
      ASSET_UPLOAD_MAX_PIXELS: String(MAX_PIXELS),
      ASSET_MAX_PER_PROJECT: '5',
    });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.reset();
    project = await createProject(t);
  });

  const upload = (
    file: Buffer,
    options: { filename?: string; contentType?: string } = {},
  ) =>
    request(t.server)
      .post(`/api/projects/${project.id}/logos`)
      .attach('file', file, {
        filename: options.filename ?? 'logo.png',
        contentType: options.contentType ?? 'image/png',
      });

  const assetCount = async () => {
    const [row] = await t.dataSource.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS "n" FROM "assets"',
    );
    return Number(row.n);
  };

  it('keeps a PNG as it was sent, with its width, height, fileName and thumbnailUrl, in every answer that shows it', async () => {
    const png = await pngOf(300, 200);
    const response = await upload(png, { filename: 'Acme Logo (final).PNG' })
      .field('fileName', 'acme logo.png')
      .expect(201);
    const { asset } = response.body as { asset: AssetBody };
    expect(asset).toMatchObject({
      projectId: project.id,
      kind: 'logo',
      contentType: 'image/png',
      byteSize: png.length,
      sha256: sha256(png),
      width: 300,
      height: 200,
      fileName: 'acme-logo.png',
      model: 'uploaded',
      prompt: '',
      thumbnailUrl: `${asset.url}?size=128`,
    });
    expect(response.headers.location).toMatch(
      new RegExp(
        `^http://[^/]+/api/projects/${project.id}/assets/${asset.id}$`,
      ),
    );
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    expect((served.body as Buffer).equals(png)).toBe(true);
    const thumbnail = await getBytes(t, pathOf(asset.thumbnailUrl!)).expect(
      200,
    );
    expect(thumbnail.headers['content-type']).toBe('image/png');
    expect(await sharp(thumbnail.body as Buffer).metadata()).toMatchObject({
      width: 128,
      height: 128,
    });
    const read = await request(t.server)
      .get(`/api/projects/${project.id}/assets/${asset.id}`)
      .expect(200);
    expect(withoutOrigin((read.body as { asset: AssetBody }).asset)).toEqual(
      withoutOrigin(asset),
    );
    const detail = await request(t.server)
      .get(`/api/projects/${project.id}`)
      .expect(200);
    const shown = (
      detail.body as { project: { assets: AssetBody[] } }
    ).project.assets.find((one) => one.id === asset.id);
    expect(withoutOrigin(shown!)).toEqual(withoutOrigin(asset));
  });

  it('the declared type is never trusted: the bytes decide, and what is no PNG, JPEG, WebP or SVG is 415', async () => {
    const jpeg = await sharp(await pngOf(20, 10))
      .jpeg()
      .toBuffer();
    const kept = await upload(jpeg, {
      filename: 'photo.png',
      contentType: 'image/png',
    }).expect(201);
    expect((kept.body as { asset: AssetBody }).asset).toMatchObject({
      contentType: 'image/jpeg',
      fileName: 'photo.jpg',
      width: 20,
      height: 10,
    });
    for (const bytes of [
      Buffer.from('GIF89a\x01\x00\x01\x00'),
      Buffer.from('%PDF-1.7'),
      Buffer.from('just some text'),
    ]) {
      const refused = await upload(bytes).expect(415);
      expect(refused.body).toEqual({
        error: 'The file must be a PNG, JPEG, WebP or SVG image',
        code: 'unsupported_image_type',
      });
    }
    // Markup that is not an SVG: 400, as an SVG that cannot be made safe.
    const html = await upload(
      Buffer.from('<html><body><script>alert(1)</script></body></html>'),
      { filename: 'logo.svg', contentType: 'image/svg+xml' },
    ).expect(400);
    expect(html.body).toMatchObject({ code: 'svg_unsafe' });
    expect(await assetCount()).toBe(1);
  });

  it('an SVG comes back without its script and is served with the sandbox CSP', async () => {
    const response = await upload(SVG_WITH_SCRIPT, {
      filename: 'mark.svg',
      contentType: 'image/svg+xml',
    }).expect(201);
    const { asset } = response.body as { asset: AssetBody };
    expect(asset).toMatchObject({
      contentType: 'image/svg+xml',
      fileName: 'mark.svg',
      width: null,
      height: null,
      thumbnailUrl: asset.url,
    });
    const served = await getBytes(t, pathOf(asset.url)).expect(200);
    const text = (served.body as Buffer).toString('utf8');
    expect(text).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0044ff"/></svg>',
    );
    expect(text).not.toMatch(/script|onload/);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toBe(SVG_POLICY);
  });

  it('an SVG that cannot be made safe is 400 svg_unsafe, and nothing is kept', async () => {
    const laughs = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>',
    );
    const response = await upload(laughs, {
      filename: 'a.svg',
      contentType: 'image/svg+xml',
    }).expect(400);
    expect(response.body).toEqual({
      error: 'The SVG declares a DOCTYPE or entities, which are refused',
      code: 'svg_unsafe',
    });
    expect(await assetCount()).toBe(0);
  });

  it('a file over ASSET_UPLOAD_MAX_BYTES is 413 file_too_large', async () => {
    const big = Buffer.concat([
      pngHeaderOf(10, 10),
      Buffer.alloc(MAX_BYTES, 1),
    ]);
    const response = await upload(big).expect(413);
    expect(response.body).toEqual({
      error: `The file is larger than ${MAX_BYTES} bytes, the most an upload may be`,
      code: 'file_too_large',
    });
    expect(await assetCount()).toBe(0);
  });

  it('an image over ASSET_UPLOAD_MAX_PIXELS is 400 too_many_pixels, judged from its header before any decoding', async () => {
    const response = await upload(pngHeaderOf(401, 400)).expect(400);
    expect(response.body).toMatchObject({ code: 'too_many_pixels' });
    expect(await assetCount()).toBe(0);
  });

  it('a form without one `file` part, or with a second file, is 400 invalid_upload', async () => {
    const noFile = await request(t.server)
      .post(`/api/projects/${project.id}/logos`)
      .field('fileName', 'a.png')
      .expect(400);
    expect(noFile.body).toMatchObject({ code: 'invalid_upload' });
    const png = await pngOf(10, 10);
    const twoFiles = await upload(png)
      .attach('file', png, { filename: 'b.png', contentType: 'image/png' })
      .expect(400);
    expect(twoFiles.body).toMatchObject({ code: 'invalid_upload' });
    const otherField = await request(t.server)
      .post(`/api/projects/${project.id}/logos`)
      .attach('image', png, { filename: 'b.png', contentType: 'image/png' })
      .expect(400);
    expect(otherField.body).toMatchObject({ code: 'invalid_upload' });
    expect(await assetCount()).toBe(0);
  });

  it('with an Idempotency-Key a retry of the same file replays the answer and keeps one asset; another file is 422', async () => {
    const png = await pngOf(30, 30);
    const send = (file: Buffer) =>
      upload(file).set('Idempotency-Key', 'upload-1');
    const first = await send(png).expect(201);
    const again = await send(png).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await assetCount()).toBe(1);
    const other = await send(await pngOf(31, 30)).expect(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('an upload to an unknown project is 404 and keeps nothing', async () => {
    const response = await request(t.server)
      .post('/api/projects/019aa8f2-5f1c-7c3e-9a51-3c1f5d0b8e99/logos')
      .attach('file', await pngOf(10, 10), {
        filename: 'a.png',
        contentType: 'image/png',
      })
      .expect(404);
    expect(response.body).toMatchObject({ code: 'project_not_found' });
    expect(await assetCount()).toBe(0);
  });

  it('the sizes of images kept before sizes were recorded are read from their bytes in the background', async () => {
    const png = await pngOf(64, 32);
    const { asset } = (await upload(png).expect(201)).body as {
      asset: AssetBody;
    };
    await t.dataSource.query(
      'UPDATE "assets" SET "width" = NULL, "height" = NULL',
    );
    const before = await request(t.server)
      .get(`/api/projects/${project.id}/assets/${asset.id}`)
      .expect(200);
    expect((before.body as { asset: AssetBody }).asset.width).toBeNull();
    await expect(t.app.get(AssetSizesBackfill).run()).resolves.toBe(1);
    const after = await request(t.server)
      .get(`/api/projects/${project.id}/assets/${asset.id}`)
      .expect(200);
    expect((after.body as { asset: AssetBody }).asset).toMatchObject({
      width: 64,
      height: 32,
    });
    // A second pass finds nothing left to read.
    await expect(t.app.get(AssetSizesBackfill).run()).resolves.toBe(0);
  });
});

describe('Uploading a logo with CORS_ORIGINS set', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: 'https://app.example.com' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is refused with 415 unless it carries a header only a preflight lets a page send', async () => {
    const project = await createProject(t);
    const png = await pngOf(10, 10);
    const send = () =>
      request(t.server)
        .post(`/api/projects/${project.id}/logos`)
        .attach('file', png, { filename: 'a.png', contentType: 'image/png' });
    const refused = await send().expect(415);
    expect(refused.body).toEqual({
      error: 'Unsupported media type',
      code: 'unsupported_media_type',
    });
    await send().set('Idempotency-Key', 'cors-upload-1').expect(201);
  });
});
