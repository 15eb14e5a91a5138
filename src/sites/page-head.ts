import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HeadJob, HeadReply, HeadTag } from './page-head.worker';

/** The worker ends itself past this heap: a page and its tree. */
const WORKER_HEAP_MB = 96;
/** A page is parsed in well under a second; past this something is wrong. */
const REWRITE_TIMEOUT_MS = 15_000;

/** What a published page's head says of the site. */
export interface SiteHead {
  /** The site's current address, ending with `/`. */
  url: string;
  title: string;
  description: string | null;
  /** Which icon files the site holds (brand kit). */
  icons: {
    favicon: boolean;
    appleTouch: boolean;
    png192: boolean;
    png512: boolean;
  };
  /** Whether the site holds og.png. */
  ogImage: boolean;
}

/**
 * The link and meta elements a published page's head gets, in order:
 * its icons (only those the site holds), then Open Graph and Twitter's
 * card, og:image an absolute URL on the site's own address.
 */
export function headTags(site: SiteHead): HeadTag[] {
  const tags: HeadTag[] = [];
  const link = (attrs: Record<string, string>) =>
    tags.push({ tag: 'link', attrs });
  const meta = (key: 'property' | 'name', name: string, content: string) =>
    tags.push({ tag: 'meta', attrs: { [key]: name, content } });
  if (site.icons.favicon) link({ rel: 'icon', href: 'favicon.ico' });
  if (site.icons.png192) {
    link({
      rel: 'icon',
      type: 'image/png',
      sizes: '192x192',
      href: 'icon-192.png',
    });
  }
  if (site.icons.png512) {
    link({
      rel: 'icon',
      type: 'image/png',
      sizes: '512x512',
      href: 'icon-512.png',
    });
  }
  if (site.icons.appleTouch) {
    link({ rel: 'apple-touch-icon', href: 'apple-touch-icon.png' });
  }
  meta('property', 'og:type', 'website');
  meta('property', 'og:title', site.title);
  if (site.description) meta('property', 'og:description', site.description);
  if (site.ogImage) meta('property', 'og:image', `${site.url}og.png`);
  meta('property', 'og:url', site.url);
  meta(
    'name',
    'twitter:card',
    site.ogImage ? 'summary_large_image' : 'summary',
  );
  return tags;
}

/**
 * The page with its icon, Open Graph and Twitter elements replaced by
 * `tags`, parsed and written again by parse5 in a worker thread of its
 * own (a publish is rare; the thread ends with the job), so the event
 * loop only posts the page and takes it back.
 */
export function rewriteHead(page: string, tags: HeadTag[]): Promise<string> {
  const job: HeadJob = { page, tags };
  const worker = new Worker(
    // The built .js in dist/, the .ts source when tests run the sources.
    join(__dirname, `page-head.worker${extname(__filename)}`),
    {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    },
  );
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('Rewriting the page took too long'));
    }, REWRITE_TIMEOUT_MS);
    const settle = () => clearTimeout(timer);
    worker.once('message', (reply: HeadReply) => {
      settle();
      if ('page' in reply) resolve(reply.page);
      else reject(new Error(`The page could not be rewritten: ${reply.error}`));
    });
    worker.once('error', (error: Error) => {
      settle();
      reject(error);
    });
    worker.once('exit', () => {
      settle();
      reject(new Error('The page rewriter stopped'));
    });
  });
}
