/**
 * The worker thread that rewrites a published page's <head> (see
 * page-head.ts): parsing and serialising a page of a few hundred kilobytes
 * takes 50 ms and more, which must not hold the event loop. It imports
 * nothing of this repository, so the same file runs built (dist/) and as
 * TypeScript (Node strips its types when tests run the sources).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { defaultTreeAdapter, html, parse, serialize } from 'parse5';
import type { DefaultTreeAdapterMap } from 'parse5';

type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

/** One element the head gains: `link` or `meta`, with its attributes. */
export interface HeadTag {
  tag: 'link' | 'meta';
  attrs: Record<string, string>;
}

export interface HeadJob {
  page: string;
  tags: HeadTag[];
}

export type HeadReply = { page: string } | { error: string };

const attr = (element: Element, name: string): string =>
  element.attrs.find((a) => a.name === name)?.value.toLowerCase() ?? '';

/** What the published head sets itself: the page's own are dropped. */
function replaced(element: Element): boolean {
  if (element.tagName === 'link') {
    const rel = attr(element, 'rel').split(/\s+/);
    return rel.includes('icon') || rel.includes('apple-touch-icon');
  }
  if (element.tagName === 'meta') {
    return (
      attr(element, 'property').startsWith('og:') ||
      attr(element, 'name').startsWith('og:') ||
      attr(element, 'name').startsWith('twitter:')
    );
  }
  return false;
}

function headOf(node: ParentNode): Element | undefined {
  for (const child of node.childNodes) {
    if (!defaultTreeAdapter.isElementNode(child)) continue;
    if (child.tagName === 'head') return child;
    if (child.tagName === 'html') return headOf(child);
  }
  return undefined;
}

function rewrite({ page, tags }: HeadJob): string {
  const document = parse(page);
  // The parser always makes a head (an empty one when the page has none).
  const head = headOf(document)!;
  for (const child of [...head.childNodes]) {
    if (defaultTreeAdapter.isElementNode(child) && replaced(child)) {
      defaultTreeAdapter.detachNode(child);
    }
  }
  for (const { tag, attrs } of tags) {
    const element = defaultTreeAdapter.createElement(
      tag,
      html.NS.HTML,
      Object.entries(attrs).map(([name, value]) => ({ name, value })),
    );
    defaultTreeAdapter.appendChild(head, element);
  }
  return serialize(document);
}

const job = workerData as HeadJob;
let reply: HeadReply;
try {
  reply = { page: rewrite(job) };
} catch (error) {
  reply = { error: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(reply);
