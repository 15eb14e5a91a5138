import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import sharp from 'sharp';
import request from 'supertest';
import {
  getBytes,
  keepLogo,
  pathOf,
  sha256,
  type AssetBody,
} from '../../../support/asset-client';
import { decodeIco } from '../../../../src/brand-kit/ico';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import {
  postTask,
  readProject,
  sectionOf,
  startTask,
  waitForTask,
} from '../../../support/task-client';
import { DevImageApi } from '../../../support/fake-image-api';
import {
  ASSET_STORES,
  startAssetStore,
  type AssetStoreUnderTest,
} from '../../../support/asset-stores';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * Renditions of kept logos (GET …/content?size=N): a square PNG of that
 * size, made once from the kept bytes and then read from storage, under the
 * same URL rules as the asset. The logos come from the dev image API; no
 * rendition calls it. Runs on SQLite and PostgreSQL.
 */

/** asset_renditions_made_total as /metrics reports it. */
async function renditionsMade(t: TestApp): Promise<number> {
  const { text } = await request(t.server).get('/metrics').expect(200);
  const line = text
    .split('\n')
    .find((row) => row.startsWith('asset_renditions_made_total '));
  return Number(line?.split(' ')[1]);
}

describe('Asset renditions', () => {
  let api: DevImageApi;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  async function keptLogo(): Promise<AssetBody> {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name: 'Renditions', userId: 'user-1' })
      .expect(201);
    const kept = await keepLogo(t, created.body.project.id as string).expect(
      201,
    );
    return kept.body.asset as AssetBody;
  }

  it('size=32 answers a 32×32 PNG, made once: the second request reads the stored one', async () => {
    const asset = await keptLogo();
    const callsBefore = api.requests.length;
    const madeBefore = await renditionsMade(t);
    const first = await getBytes(t, `${pathOf(asset.url)}?size=32`).expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const meta = await sharp(first.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 32, 32]);
    expect(first.headers.etag).toBe(`"${sha256(first.body as Buffer)}"`);
    expect(await renditionsMade(t)).toBe(madeBefore + 1);

    const second = await getBytes(t, `${pathOf(asset.url)}?size=32`).expect(
      200,
    );
    expect(sha256(second.body as Buffer)).toBe(sha256(first.body as Buffer));
    expect(await renditionsMade(t)).toBe(madeBefore + 1);
    await request(t.server)
      .get(`${pathOf(asset.url)}?size=32`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    // The kept bytes are untouched, and the image model was not asked again.
    const original = await getBytes(t, pathOf(asset.url)).expect(200);
    expect(sha256(original.body as Buffer)).toBe(asset.sha256);
    expect(api.requests.length).toBe(callsBefore);
  });

  it('a size that is not an integer from 16 to 1024 is invalid input (400)', async () => {
    const asset = await keptLogo();
    for (const size of ['15', '1025', '32.5', 'big']) {
      const res = await request(t.server)
        .get(`${pathOf(asset.url)}?size=${size}`)
        .expect(400);
      expect(res.body.error).toBe('Invalid input');
      expect(res.body.details[0].path).toEqual(['size']);
    }
  });

  it('renditions go with their asset', async () => {
    const asset = await keptLogo();
    await getBytes(t, `${pathOf(asset.url)}?size=64`).expect(200);
    await request(t.server)
      .delete(`/api/projects/${asset.projectId}/assets/${asset.id}`)
      .expect((res) => expect([200, 204]).toContain(res.status));
    await request(t.server)
      .get(`${pathOf(asset.url)}?size=64`)
      .expect(404);
  });
});

/** The zip's entries as `unzip -Z1`/`unzip -p` read them: name → bytes. */
function unzipped(zip: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'brand-kit-'));
  try {
    const file = join(dir, 'kit.zip');
    writeFileSync(file, zip);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    return new Map(
      names.map((name) => [
        name,
        execFileSync('unzip', ['-p', file, name], {
          maxBuffer: 64 * 1024 * 1024,
        }),
      ]),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dimensionsOf = async (png: Buffer) => {
  const meta = await sharp(png).metadata();
  return [meta.format, meta.width, meta.height];
};

describe.each(ASSET_STORES)('Brand kit (ASSET_STORE=%s)', (kind) => {
  let api: DevImageApi;
  let store: AssetStoreUnderTest;
  let t: TestApp;

  beforeAll(async () => {
    api = await DevImageApi.start();
    store = await startAssetStore(kind);
    t = await createTestApp({
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
      ...store.env,
    });
  });
  afterAll(async () => {
    await t?.close();
    await store?.close();
    await api?.close();
  });

  async function projectWithLogo(name: string) {
    const created = await request(t.server)
      .post('/api/projects')
      .send({ name, userId: 'user-1' })
      .expect(201);
    const projectId = created.body.project.id as string;
    const kept = await keepLogo(t, projectId).expect(201);
    return { projectId, logo: kept.body.asset as AssetBody };
  }

  it('without a chosen logo (and no assetId) creating the task is refused (409)', async () => {
    const { projectId } = await projectWithLogo('No choice');
    const res = await postTask(t, projectId, {
      type: 'brand-kit',
      input: {},
    }).expect(409);
    expect(res.body.error).toMatch(/no chosen logo/);
    await request(t.server)
      .get(`/api/projects/${projectId}/brand-kit.zip`)
      .expect(404, {
        error: 'No brand kit for the chosen logo',
        code: 'not_found',
      });
  });

  it('makes the kit from the chosen logo without the image model, and zips it', async () => {
    const { projectId, logo } = await projectWithLogo('Acme Rockets!');
    const project = await readProject(t, projectId);
    await request(t.server)
      .put(
        `/api/projects/${projectId}/sections/${sectionOf(project, 'LOGO').id}/selection`,
      )
      .send({ assetId: logo.id })
      .expect(200);
    const callsBefore = api.requests.length;

    const queued = await startTask(t, projectId, {
      type: 'brand-kit',
      input: {},
    });
    // The defaults are stored: the chosen logo, and the first #rrggbb of
    // its prompt (colors: navy, #ffd700).
    expect(queued.input).toEqual({
      assetId: logo.id,
      backgroundColor: '#ffd700',
    });
    const task = await waitForTask(t, projectId, queued.id);
    expect(task.status).toBe('SUCCEEDED');
    expect(task.assetIds).toHaveLength(8);
    expect(api.requests.length).toBe(callsBefore);

    const assets = await Promise.all(
      task.assetIds.map(async (assetId) => {
        const res = await request(t.server)
          .get(`/api/projects/${projectId}/assets/${assetId}`)
          .expect(200);
        return res.body.asset as AssetBody;
      }),
    );
    const byName = new Map(
      assets.map((asset) => [asset.prompt.split(' ')[0], asset]),
    );
    expect([...byName.keys()].sort()).toEqual(
      [
        'apple-touch-icon.png',
        'favicon.ico',
        'icon-192.png',
        'icon-512.png',
        'logo-inverse.png',
        'logo-mono.png',
        'logo.png',
        'og-image.png',
      ].sort(),
    );
    // The kit's files are the site's icons: ICONS holds them, which they
    // take to REVIEW, and LOGO keeps its logo alone (and its choice).
    const after = await readProject(t, projectId);
    expect(sectionOf(after, 'ICONS').status).toBe('REVIEW');
    expect(sectionOf(after, 'LOGO').status).toBe('DONE');
    for (const asset of assets) {
      expect(asset.kind).toBe('brand-kit');
      expect(asset.sectionId).toBe(sectionOf(after, 'ICONS').id);
      expect(asset.prompt).toBe(
        `${asset.prompt.split(' ')[0]} from logo ${logo.id}`,
      );
    }
    const favicon = byName.get('favicon.ico')!;
    expect(favicon.contentType).toBe('image/x-icon');
    const ico = await getBytes(t, pathOf(favicon.url)).expect(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    expect(ico.headers['x-content-type-options']).toBe('nosniff');
    const entries = decodeIco(ico.body as Buffer);
    expect(
      await Promise.all(entries.map(({ png }) => dimensionsOf(png))),
    ).toEqual([
      ['png', 16, 16],
      ['png', 32, 32],
      ['png', 48, 48],
    ]);

    const zip = await getBytes(t, `/api/projects/${projectId}/brand-kit.zip`)
      .expect(200)
      .expect('Content-Type', 'application/zip')
      .expect(
        'Content-Disposition',
        'attachment; filename="acme-rockets-brand-kit.zip"',
      );
    const files = unzipped(zip.body as Buffer);
    expect([...files.keys()]).toEqual([
      'favicon.ico',
      'apple-touch-icon.png',
      'icon-192.png',
      'icon-512.png',
      'og-image.png',
      'logo.png',
      'logo-mono.png',
      'logo-inverse.png',
    ]);
    expect(files.get('favicon.ico')!.equals(ico.body as Buffer)).toBe(true);
    expect(await dimensionsOf(files.get('apple-touch-icon.png')!)).toEqual([
      'png',
      180,
      180,
    ]);
    expect(await dimensionsOf(files.get('icon-192.png')!)).toEqual([
      'png',
      192,
      192,
    ]);
    expect(await dimensionsOf(files.get('icon-512.png')!)).toEqual([
      'png',
      512,
      512,
    ]);
    expect(await dimensionsOf(files.get('og-image.png')!)).toEqual([
      'png',
      1200,
      630,
    ]);
    const original = await sharp(
      (await getBytes(t, pathOf(logo.url)).expect(200)).body as Buffer,
    ).metadata();
    for (const name of ['logo.png', 'logo-mono.png', 'logo-inverse.png']) {
      expect(await dimensionsOf(files.get(name)!)).toEqual([
        'png',
        original.width,
        original.height,
      ]);
    }
    expect(api.requests.length).toBe(callsBefore);
  });

  it('an explicit background colour is kept with the task; a bad one is invalid input', async () => {
    const { projectId, logo } = await projectWithLogo('Colours');
    const bad = await postTask(t, projectId, {
      type: 'brand-kit',
      input: { assetId: logo.id, backgroundColor: 'navy' },
    }).expect(400);
    expect(bad.body.error).toBe('Invalid input');
    const queued = await startTask(t, projectId, {
      type: 'brand-kit',
      input: { assetId: logo.id, backgroundColor: '#0044FF' },
    });
    expect(queued.input.backgroundColor).toBe('#0044FF');
    const task = await waitForTask(t, projectId, queued.id);
    expect(task.status).toBe('SUCCEEDED');
  });
});

describe('Asset renditions with AUTH_MODE=oidc', () => {
  let provider: DevAuthProviderProcess;
  let api: DevImageApi;
  let t: TestApp;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start({
      ...(await exportJWK(privateKey)),
      kid: 'renditions-oidc',
      alg: 'RS256',
      use: 'sig',
    });
    api = await DevImageApi.start();
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      IMAGE_API_KEY: 'sk-test',
      IMAGE_API_URL: api.url,
    });
    alice = await provider.token('alice');
    bob = await provider.token('bob');
  });

  it("the zip is a project route: a token, and another user's project is 404", async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .set({ Authorization: `Bearer ${alice}` })
      .send({ name: 'Private' })
      .expect(201);
    const zip = `/api/projects/${created.body.project.id as string}/brand-kit.zip`;
    await request(t.server).get(zip).expect(401);
    await request(t.server)
      .get(zip)
      .set({ Authorization: `Bearer ${bob}` })
      .expect(404, { error: 'Project not found', code: 'project_not_found' });
    await request(t.server)
      .get(zip)
      .set({ Authorization: `Bearer ${alice}` })
      .expect(404, {
        error: 'No brand kit for the chosen logo',
        code: 'not_found',
      });
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await provider?.stop();
  });

  it('a size needs the signed URL as the asset does (403 without it)', async () => {
    const created = await request(t.server)
      .post('/api/projects')
      .set({ Authorization: `Bearer ${alice}` })
      .send({ name: 'Signed' })
      .expect(201);
    const kept = await keepLogo(t, created.body.project.id as string)
      .set({ Authorization: `Bearer ${alice}` })
      .expect(201);
    const asset = kept.body.asset as AssetBody;
    const signed = new URL(asset.url);
    const unsigned = `${signed.pathname}?size=32`;
    const refused = await request(t.server).get(unsigned).expect(403);
    expect(refused.body).toEqual({
      error: 'This asset URL has expired or is not valid',
      code: 'asset_url_refused',
    });
    const res = await getBytes(t, `${pathOf(asset.url)}&size=32`).expect(200);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([32, 32]);
    expect(res.headers['cache-control']).toMatch(
      /^private, max-age=\d+, immutable$/,
    );
  });
});
