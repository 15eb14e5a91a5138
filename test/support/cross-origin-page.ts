import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  chromium,
  type Browser,
  type Page,
  type Response,
} from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './chromium';

/**
 * The little of the page's DOM that showImage uses: this project compiles
 * for Node, without the DOM's types.
 */
interface PageImage {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  onload: (() => void) | null;
  onerror: (() => void) | null;
}
interface PageDocument {
  createElement(tag: 'img'): PageImage;
  body: { append(node: PageImage): void };
}

/** What the page's own server serves (CrossOriginPage.open). */
export interface PageSite {
  html?: string;
  files?: Record<string, { contentType: string; body: string | Buffer }>;
}

/**
 * A frontend on another origin in headless Chromium: an empty document
 * served from its own port of 127.0.0.1, so everything the page loads from
 * the service is cross-origin and the browser applies its own rules
 * (CORS for fetch, CORP and opaque-response blocking for <img>).
 */
export class CrossOriginPage {
  /** Console errors of the page, said in failure messages. */
  readonly problems: string[] = [];

  private constructor(
    private readonly server: Server,
    private readonly browser: Browser,
    readonly page: Page,
    readonly origin: string,
  ) {}

  /**
   * `site`: what the page's server answers instead of the empty document:
   * its `html` at every path (a redirect back from a sign-in lands on one
   * too), and `files` by path (a script bundle).
   */
  static async open(site: PageSite = {}): Promise<CrossOriginPage> {
    const choice = await findChromium();
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://page').pathname;
      const file = site.files?.[path];
      if (file !== undefined) {
        res.writeHead(200, { 'Content-Type': file.contentType });
        res.end(file.body);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        site.html ?? '<!doctype html><title>Frontend</title><p>Frontend</p>',
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: choice.executablePath,
        args: CHROMIUM_ARGS,
      });
    } catch (error) {
      server.close();
      throw new Error(
        `Chromium from ${choice.source} did not start: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const page = await browser.newPage();
    const opened = new CrossOriginPage(server, browser, page, origin);
    page.on('console', (message) => {
      if (message.type() === 'error') opened.problems.push(message.text());
    });
    await page.goto(origin);
    return opened;
  }

  /**
   * A fetch the page's script makes; the parsed JSON body (null when
   * empty). A CORS refusal throws, with what the console said.
   */
  async fetchJson(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<{ status: number; body: unknown }> {
    const answer = await this.page.evaluate(
      async ({ url, init }) => {
        try {
          const response = await fetch(url, init);
          const text = await response.text();
          return {
            status: response.status,
            body: text === '' ? null : (JSON.parse(text) as unknown),
          };
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      },
      { url, init },
    );
    if (typeof answer === 'string') {
      throw new Error(
        `${init.method ?? 'GET'} ${url} failed in the browser: ${answer}\n${this.problems.join('\n')}`,
      );
    }
    return answer;
  }

  /**
   * Puts `<img src=url>` in the page, as a frontend shows a logo (no
   * header of its own, no crossorigin attribute), and waits for its load
   * or error. Also says what went over the network: the answer the browser
   * let through (null when it blocked it, e.g. opaque-response blocking of
   * a JSON error) and the headers the <img> sent. The url must not be in
   * the browser's cache yet: a cached image makes no request.
   */
  async showImage(url: string): Promise<{
    loaded: boolean;
    naturalWidth: number;
    naturalHeight: number;
    response: Response | null;
    failure: string | null;
    sentHeaders: Record<string, string>;
  }> {
    const requested = this.page.waitForRequest(
      (candidate) => candidate.url() === url,
    );
    const shown = await this.page.evaluate(
      (src) =>
        new Promise<{
          loaded: boolean;
          naturalWidth: number;
          naturalHeight: number;
        }>((resolve) => {
          const { document } = globalThis as unknown as {
            document: PageDocument;
          };
          const img = document.createElement('img');
          const settle = (loaded: boolean) =>
            resolve({
              loaded,
              naturalWidth: img.naturalWidth,
              naturalHeight: img.naturalHeight,
            });
          img.onload = () => settle(true);
          img.onerror = () => settle(false);
          img.src = src;
          document.body.append(img);
        }),
      url,
    );
    const request = await requested;
    // Resolves once the request ended, answered or failed.
    const response = await request.response();
    return {
      ...shown,
      response,
      failure: request.failure()?.errorText ?? null,
      sentHeaders: await request.allHeaders(),
    };
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
