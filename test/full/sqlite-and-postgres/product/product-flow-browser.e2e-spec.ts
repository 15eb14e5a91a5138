import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowReport } from '../../../client-usage/calls/flow-report';
import { DevAuthProviderProcess } from '../../../support/dev-auth-provider-process';
import { DevImageApi, Replies } from '../../../support/fake-image-api';
import { bundleFlow } from '../../../support/flow-bundle';
import { generateClients } from '../../../support/generated-clients';
import {
  OidcSignInPage,
  SPA_CLIENT_ID,
  type PageGlobals,
} from '../../../support/oidc-sign-in-page';
import { listen } from '../../../support/pending-request';
import { REPO_ROOT } from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A product UI on another origin, in headless Chromium, signed in with
 * oidc-client-ts against the dev OpenID Provider (AUTH_MODE=oidc), runs
 * the workspace flow through each of the three generated clients (made
 * from the served /docs-json): create, a 3-logo task followed to its end by its progress
 * in the live changes alone, cancel, keep a preview, choose it, download
 * the brand kit with its file name, search and sort the list.
 */

const GENERATORS = ['openapi-fetch', 'hey-api', 'orval'] as const;

/** The page's globals: oidc-client-ts and the flow's bundle. */
interface FlowGlobal extends PageGlobals {
  workspaceFlow: {
    runFlow(
      generator: string,
      baseUrl: string,
      token: () => Promise<string | null>,
      prefix: string,
    ): Promise<FlowReport>;
  };
}

describe('the product flow from a page on another origin (headless Chromium)', () => {
  let browser: OidcSignInPage;
  let provider: DevAuthProviderProcess;
  let imageApi: DevImageApi;
  let t: TestApp;
  let api: string;
  let dir: string;

  beforeAll(async () => {
    browser = await OidcSignInPage.open();
    imageApi = await DevImageApi.start();
    provider = await DevAuthProviderProcess.startWithNewKey('product-flow', {
      CORS_ORIGINS: browser.origin,
    });
    t = await createTestApp({
      AUTH_MODE: 'oidc',
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'workspace-api',
      ASSET_URL_SIGNING_KEY: 'a-test-signing-key-of-at-least-32-chars',
      CORS_ORIGINS: browser.origin,
      IMAGE_API_KEY: 'sk-product-flow',
      IMAGE_API_URL: imageApi.url,
      IMAGE_MODEL: 'gpt-image-2.5-sunburst',
    });
    api = await listen(t);
    const served = (await (await fetch(`${api}/docs-json`)).json()) as object;
    dir = mkdtempSync(join(tmpdir(), 'product-flow-'));
    const calls = join(dir, 'calls');
    cpSync(join(REPO_ROOT, 'test', 'client-usage', 'calls'), calls, {
      recursive: true,
    });
    generateClients(served, join(calls, 'generated'), api);
    await browser.signIn(
      { authority: provider.issuer, client_id: SPA_CLIENT_ID },
      'flow-user',
    );
    // After the redirects the page is the app's /callback: the flow joins it.
    await browser.browser.page.addScriptTag({ content: bundleFlow(calls) });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await imageApi?.close();
    await provider?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the flow in the page, its token oidc-client-ts's current one. */
  const run = (generator: string, prefix: string) =>
    browser.browser.page.evaluate(
      ({ generator, api, prefix }) => {
        const page = globalThis as unknown as FlowGlobal;
        const manager = page.oidc.manager();
        const token = async () =>
          (await manager.getUser())?.access_token ?? null;
        return page.workspaceFlow.runFlow(generator, api, token, prefix);
      },
      { generator, api, prefix },
    );

  it.each(GENERATORS)(
    'runs the whole flow through the %s client',
    async (generator) => {
      const prefix = `Flow${generator.replace(/\W/g, '')}`;
      // Every image takes 1.5 s: the task the flow cancels right after
      // queueing it is still queued or drawing when the cancel arrives.
      imageApi.reset();
      imageApi.respondWith(Replies.slow(Replies.image(), 1_500));
      const report = await run(generator, prefix);
      expect(report.created.status).toBe(201);
      expect(report.created.location).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/api\/projects\//,
      );
      expect(report.logoTask.status).toBe('SUCCEEDED');
      expect(report.logoTask.assetIds).toHaveLength(3);
      expect(report.progress).toEqual(
        expect.arrayContaining(['1/3', '2/3', '3/3']),
      );
      expect(report.assetEvents).toBeGreaterThanOrEqual(3);
      expect(report.cancelled).toEqual({
        status: 200,
        taskStatus: 'CANCELLED',
      });
      expect(report.preview.status).toBe(200);
      expect(Date.parse(report.preview.expiresAt ?? '')).toBeGreaterThan(
        Date.now(),
      );
      expect(report.kept.status).toBe(201);
      expect(report.brandKit.status).toBe(200);
      expect(report.brandKit.fileName).toMatch(/-brand-kit\.zip$/);
      expect(report.brandKit.bytes).toBeGreaterThan(1000);
      expect(report.search.names).toEqual([`${prefix} Coffee`]);
      expect(report.search.total).toBe(1);
      expect(report.search.thumbnail).toMatch(/\/content\?.*size=128/);
      const sorted = [...report.sorted.names].sort().reverse();
      expect(report.sorted.names).toEqual(sorted);
    },
    180_000,
  );
});
