import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DevTextApi } from '../dev-servers/text-api';
import { DEV_TEXT_MODELS } from '../dev-servers/text-api/dev-text-api';
import { checkPage } from '../src/site-check/page-checks';
import { siteCheckOf } from '../src/site-check/site-check';
import { stopSiteChecker } from '../src/site-check/site-checker';
import {
  landingPageMessages,
  parseLandingPage,
} from '../src/text-generation/landing-page';

/**
 * What checking one landing page costs (a site-check task's work): wall
 * time, CPU time (user + system, every thread: the worker's included)
 * and the longest hold of the event loop (the largest gap between 1 ms
 * timers, and the loop-delay histogram's max), for the dev text API's
 * landing page, that page with a 500 KB logo inlined, and pages of many
 * sections (500 KB: over the element bound; 60 KB: under it), checked in the
 * worker thread (what the task does) and, for comparison, on the main
 * thread. `npm run bench:site-check`.
 */

const ROUNDS = 3;
const KB = 1024;

interface Figures {
  wallMs: number;
  cpuMs: number;
  holdMs: number;
}

async function measure(work: () => Promise<unknown>): Promise<Figures> {
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let hold = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    hold = Math.max(hold, now - last);
    last = now;
  }, 1);
  const cpu = process.cpuUsage();
  const started = performance.now();
  loop.enable();
  await work();
  const wallMs = performance.now() - started;
  // A turn of the loop after the work, so that a hold at its very end is seen.
  await new Promise((resolve) => setTimeout(resolve, 2));
  loop.disable();
  const used = process.cpuUsage(cpu);
  clearInterval(ticker);
  return {
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    holdMs: Math.max(hold, loop.max / 1e6),
  };
}

/** The page the dev code model answers a landing-page request with. */
async function devLandingPage(): Promise<string> {
  const texts = await DevTextApi.start();
  try {
    const answer = await fetch(`${texts.url}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer sk-bench',
      },
      body: JSON.stringify({
        model: DEV_TEXT_MODELS[0],
        messages: landingPageMessages(
          { name: 'Quiet Harbor', description: 'Moorings for small boats.' },
          undefined,
          false,
        ),
      }),
    });
    const body = (await answer.json()) as {
      choices: Array<{ message: { content: string } }>;
    };
    return parseLandingPage(body.choices[0].message.content, undefined);
  } finally {
    await texts.close();
  }
}

/** A valid page of repeated sections (headings, text, lists, a table) to `bytes`. */
function pageOf(bytes: number): string {
  const head =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="A long page."><title>Long page</title><style>body{color:#222;background:#fff} .card{color:#333;background:#f5f5f5}</style></head><body><header><h1>Long page</h1></header><main>';
  const tail = '</main></body></html>';
  const sections: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const section = `<section class="card" id="s${i}"><h2>Section ${i}</h2><p>Paragraph ${i} with <a href="#s${i}">a link</a> and <strong>some</strong> text to read.</p><ul><li>One</li><li>Two</li><li>Three</li></ul><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Basic</td><td>$${i}</td></tr></table></section>`;
    sections.push(section);
    size += section.length;
  }
  return head + sections.join('') + tail;
}

/** The dev page with a logo of `bytes` inlined, as a kept page holds its logo. */
function withInlinedLogo(page: string, bytes: number): string {
  const logo = `data:image/png;base64,${Buffer.alloc((bytes * 3) / 4, 7).toString('base64')}`;
  return page.replace('<h1>', `<img src="${logo}" alt="Logo" width="96"><h1>`);
}

async function main(): Promise<void> {
  const dev = await devLandingPage();
  const pages: Record<string, string> = {
    'dev text API landing page': dev,
    '500 KB: the dev page, a 500 KB logo inlined': withInlinedLogo(
      dev,
      500 * KB,
    ),
    '500 KB of sections (25,000 elements: axe skipped)': pageOf(500 * KB),
    '60 KB of sections (3,000 elements)': pageOf(60 * KB),
  };
  // The first check starts the worker and loads the libraries: not counted.
  await siteCheckOf(
    { assetId: 'warm', byteSize: 1, html: '<p>x</p>' },
    120_000,
  );
  await checkPage('<p>x</p>');
  console.log(`${ROUNDS} checks of each page, the worst shown`);
  // What the machine does to a 1 ms timer with nothing to do: the floor
  // under every hold below (other processes share its cores).
  const idle = await measure(() => new Promise((r) => setTimeout(r, 1000)));
  console.log(`Idle second: longest loop hold ${idle.holdMs.toFixed(1)} ms`);
  console.log(
    '| Page | KB | where | findings | wall ms | CPU ms | longest loop hold ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, html] of Object.entries(pages)) {
    const byteSize = Buffer.byteLength(html);
    const ways: Record<string, () => Promise<number>> = {
      'worker thread (used)': async () =>
        (await siteCheckOf({ assetId: name, byteSize, html }, 120_000)).findings
          .length,
      'main thread': async () => (await checkPage(html)).findings.length,
    };
    for (const [where, check] of Object.entries(ways)) {
      const runs: Figures[] = [];
      let findings = 0;
      for (let round = 0; round < ROUNDS; round++) {
        runs.push(
          await measure(async () => {
            findings = await check();
          }),
        );
      }
      const worst = (key: keyof Figures) =>
        Math.max(...runs.map((run) => run[key]));
      console.log(
        `| ${name} | ${(byteSize / KB).toFixed(0)} | ${where} | ${findings} | ${worst('wallMs').toFixed(0)} | ${worst('cpuMs').toFixed(0)} | ${worst('holdMs').toFixed(1)} |`,
      );
    }
  }
  await stopSiteChecker();
}

void main();
