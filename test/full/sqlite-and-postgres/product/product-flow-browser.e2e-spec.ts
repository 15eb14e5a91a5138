import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FlowReport } from '../../../client-usage/calls/flow-report';
import { CrossOriginPage } from '../../../support/cross-origin-page';
import { DevImageApi } from '../../../support/fake-image-api';
import { bundleFlow } from '../../../support/flow-bundle';
import { generateClients } from '../../../support/generated-clients';
import { listen } from '../../../support/pending-request';
import { REPO_ROOT } from '../../../support/server-process';
import { createTestApp, type TestApp } from '../../../support/test-app';

/**
 * A product UI on another origin, in headless Chromium, runs the workspace
 * flow through each of the three generated clients (made from the served
 * /docs-json): create, a 3-logo task followed to its end by its progress
 * in the live changes alone, cancel, keep a preview, choose it, download
 * the brand kit with its file name, search and sort the list.
 */

const GENERATORS = ['openapi-fetch', 'hey-api', 'orval'] as const;

interface FlowGlobal {
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
  let browser: CrossOriginPage;
  let imageApi: DevImageApi;
  let t: TestApp;
  let api: string;
  let dir: string;
  let bundle: string;

  beforeAll(async () => {
    browser = await CrossOriginPage.open();
    imageApi = await DevImageApi.start();
    t = await createTestApp({
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
    bundle = bundleFlow(calls);
    await browser.page.addScriptTag({ content: bundle });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await imageApi?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (generator: string, prefix: string) =>
    browser.page.evaluate(
      ({ generator, api, prefix }) =>
        (globalThis as unknown as FlowGlobal).workspaceFlow.runFlow(
          generator,
          api,
          () => Promise.resolve(null),
          prefix,
        ),
      { generator, api, prefix },
    );

  it.each(GENERATORS)(
    'runs the whole flow through the %s client',
    async (generator) => {
      const prefix = `Flow${generator.replace(/\W/g, '')}`;
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
      const sorted = [...report.sorted.names].sort().reverse();
      expect(report.sorted.names).toEqual(sorted);
    },
    180_000,
  );
});
