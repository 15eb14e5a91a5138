import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../../support/chromium';
import {
  startServer,
  type ServerProcess,
} from '../../../support/server-process';

/**
 * Swagger UI in a real browser: headless Chromium (CHROMIUM_PATH, Debian's,
 * or the one inside the @sparticuz/chromium package; never one a tool
 * downloads) against the built server process.
 */

const OPERATIONS = [
  'POST /api/projects',
  'GET /api/projects',
  'GET /api/projects/{id}',
  'PATCH /api/projects/{id}',
  'DELETE /api/projects/{id}',
  'POST /api/ai/generate-logo',
  'GET /api/ai/generate-logo',
  'GET /api/ai/logos/{file}',
  'GET /api/ai/models',
  'POST /api/projects/{id}/logos',
  'GET /api/projects/{id}/assets/{assetId}',
  'DELETE /api/projects/{id}/assets/{assetId}',
  'GET /api/projects/{id}/assets/{assetId}/content',
  'GET /api/projects/{id}/brand-kit.zip',
  'PUT /api/projects/{id}/sections/{sectionId}/selection',
  'DELETE /api/projects/{id}/sections/{sectionId}/selection',
  'POST /api/projects/{id}/tasks',
  'GET /api/projects/{id}/tasks',
  'GET /api/projects/{id}/tasks/{taskId}',
  'POST /api/projects/{id}/tasks/{taskId}/cancel',
  'POST /api/projects/{id}/runs',
  'GET /api/projects/{id}/runs',
  'GET /api/projects/{id}/runs/{runId}',
  'POST /api/projects/{id}/runs/{runId}/cancel',
  'GET /api/projects/{id}/site',
  'POST /api/projects/{id}/site/rollback',
  'DELETE /api/projects/{id}/site',
  'GET /api/events',
  'POST /api/events/tickets',
  'GET /api/projects/{id}/events',
  'GET /api/usage',
  'GET /api/me',
];

describe('Swagger UI at /docs in headless Chromium', () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    const browserChoice = await findChromium();
    dir = mkdtempSync(join(tmpdir(), 'docs-browser-'));
    server = await startServer(
      { DATABASE_URL: `file:${join(dir, 'db.sqlite')}` },
      { cwd: dir },
    );
    try {
      browser = await chromium.launch({
        executablePath: browserChoice.executablePath,
        args: CHROMIUM_ARGS,
      });
    } catch (error) {
      throw new Error(
        `Chromium from ${browserChoice.source} (${browserChoice.executablePath}) did not start: ${String(error)}`,
        { cause: error },
      );
    }
  }, 60_000);

  // Every step copes with a start-up that failed before reaching it, so
  // Jest reports that failure, not a second one from the cleanup.
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists every operation, with no page error and no blocked resource', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) =>
      problems.push(`page error: ${error.message}`),
    );
    page.on('console', (message) => {
      if (message.type() === 'error')
        problems.push(`console: ${message.text()}`);
    });
    page.on('requestfailed', (req) =>
      problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`),
    );

    await page.goto(`${server.baseUrl}/docs`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    const listed = await page.$$eval('.opblock-summary', (blocks) =>
      blocks.map((block) => {
        const method = block
          .querySelector('.opblock-summary-method')
          ?.textContent?.trim();
        const path = block
          .querySelector('.opblock-summary-path')
          ?.getAttribute('data-path');
        return `${method} ${path}`;
      }),
    );
    expect(listed.sort()).toEqual([...OPERATIONS].sort());
    expect(await page.title()).toBe('Workspace API');
    expect(problems).toEqual([]);
  }, 60_000);

  it('fills in no optional parameter on "Try it out" (userId, limit, cursor stay empty, so nothing is sent)', async () => {
    const page = await browser.newPage();
    // No deep link: it expands the operation with an animation, and a click
    // meanwhile could fold it again. Operations start folded; open this one.
    await page.goto(`${server.baseUrl}/docs`);
    const operation = page.locator('#operations-projects-listProjects');
    await operation.waitFor({ timeout: 20_000 });
    await operation.locator('.opblock-summary').click();
    const tryOut = operation.locator('.try-out__btn');
    await tryOut.waitFor({ state: 'visible', timeout: 20_000 });
    await tryOut.click();
    const values: Record<string, string> = {};
    for (const name of ['userId', 'limit', 'cursor']) {
      values[name] = await operation
        .locator(`tr[data-param-name="${name}"] input`)
        .inputValue();
    }
    expect(values).toEqual({ userId: '', limit: '', cursor: '' });
  }, 60_000);
});
