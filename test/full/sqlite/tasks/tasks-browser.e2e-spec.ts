import { exportJWK, generateKeyPair } from 'jose';
import { PNG_SIZE } from '../../../../dev-servers/image-api/logo-png';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi } from '../../../support/fake-image-api';
import { listen } from '../../../support/pending-request';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A frontend on another origin runs a logo task from start to choice in
 * headless Chromium, with AUTH_MODE=oidc and a token the page fetched from
 * the dev OpenID Provider: it creates a project, posts a logo task, polls
 * it until it succeeds, shows the logos in <img> elements (signed urls,
 * cross-origin), picks one and sees the LOGO section DONE.
 */

const AUDIENCE = 'workspace-api';
const POLL_MS = 100;
const POLL_LIMIT_MS = 20_000;

interface AssetBody {
  id: string;
  url: string;
}
interface SectionBody {
  id: string;
  type: string;
  status: string;
  selectedAssetId: string | null;
  assets: AssetBody[];
}
interface ProjectBody {
  id: string;
  sections: SectionBody[];
}
interface TaskBody {
  id: string;
  status: string;
  assetIds: string[];
}

describe('a logo task run by a page on another origin (headless Chromium, AUTH_MODE=oidc)', () => {
  let browser: CrossOriginPage;
  let provider: DevAuthProviderProcess;
  let imageApi: DevImageApi;
  let t: TestApp;
  let api: string;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    const { privateKey } = await generateKeyPair('RS256', {
      extractable: true,
    });
    provider = await DevAuthProviderProcess.start(
      {
        ...(await exportJWK(privateKey)),
        kid: 'tasks-browser',
        alg: 'RS256',
        use: 'sig',
      },
      // The page fetches its own token: the provider answers its CORS.
      { CORS_ORIGINS: browser.origin },
    );
    // The dev image API draws a real PNG for each logo.
    imageApi = await DevImageApi.start();
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: AUDIENCE,
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      CORS_ORIGINS: browser.origin,
      IMAGE_API_KEY: 'sk-tasks-browser',
      IMAGE_API_URL: imageApi.url,
    });
    api = await listen(t);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await imageApi?.close();
    await provider?.stop();
  });

  it('creates a project, runs a logo task to SUCCEEDED, shows its logos, selects one and sees the section DONE', async () => {
    const token = await browser.page.evaluate(async (issuer) => {
      const response = await fetch(`${issuer}/_dev/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user: 'dana' }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    }, provider.issuer);
    const auth = { Authorization: `Bearer ${token}` };
    const json = { ...auth, 'Content-Type': 'application/json' };

    const created = await browser.fetchJson(`${api}/api/projects`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Tasks from the page' }),
    });
    expect(created.status).toBe(201);
    const projectId = (created.body as { project: ProjectBody }).project.id;

    const posted = await browser.fetchJson(
      `${api}/api/projects/${projectId}/tasks`,
      {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          type: 'logo',
          input: {
            companyName: 'Page Co',
            style: 'geometric',
            colors: ['#0F766E', '#F59E0B'],
            count: 2,
          },
        }),
      },
    );
    expect(posted.status).toBe(202);
    const taskId = (posted.body as { task: TaskBody }).task.id;

    // The page polls, as a frontend does, until the task is finished.
    let task = (posted.body as { task: TaskBody }).task;
    const until = Date.now() + POLL_LIMIT_MS;
    while (['QUEUED', 'RUNNING'].includes(task.status) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const answer = await browser.fetchJson(
        `${api}/api/projects/${projectId}/tasks/${taskId}`,
        { headers: auth },
      );
      expect(answer.status).toBe(200);
      task = (answer.body as { task: TaskBody }).task;
    }
    expect(task.status).toBe('SUCCEEDED');
    expect(task.assetIds).toHaveLength(2);

    const read = await browser.fetchJson(`${api}/api/projects/${projectId}`, {
      headers: auth,
    });
    expect(read.status).toBe(200);
    const logo = (read.body as { project: ProjectBody }).project.sections.find(
      (section) => section.type === 'LOGO',
    )!;
    expect(logo.status).toBe('REVIEW');
    const shownAssets = logo.assets.filter((asset) =>
      task.assetIds.includes(asset.id),
    );
    expect(shownAssets.map((asset) => asset.id).sort()).toEqual(
      [...task.assetIds].sort(),
    );
    for (const asset of shownAssets) {
      const shown = await browser.showImage(asset.url);
      expect(shown.failure).toBeNull();
      expect(shown.response?.status()).toBe(200);
      expect(shown).toMatchObject({ loaded: true, naturalWidth: PNG_SIZE });
      expect(shown.naturalWidth).toBeGreaterThan(0);
    }

    const chosen = task.assetIds[1];
    const selected = await browser.fetchJson(
      `${api}/api/projects/${projectId}/sections/${logo.id}/selection`,
      {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ assetId: chosen }),
      },
    );
    expect(selected.status).toBe(200);

    const after = await browser.fetchJson(`${api}/api/projects/${projectId}`, {
      headers: auth,
    });
    expect(after.status).toBe(200);
    const done = (after.body as { project: ProjectBody }).project.sections.find(
      (section) => section.type === 'LOGO',
    )!;
    expect(done).toMatchObject({ status: 'DONE', selectedAssetId: chosen });
    expect(browser.problems).toEqual([]);
  }, 60_000);
});
