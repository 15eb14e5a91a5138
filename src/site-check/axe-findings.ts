import axe from 'axe-core';
import type { DOMWindow } from 'jsdom';
import { runInThisContext } from 'node:vm';
import type { FindingSeverity, SiteFinding } from './site-report';

/**
 * axe rules that are off, and why. jsdom lays nothing out (no sizes, no
 * positions, no painted colours), so rules that measure the rendered
 * page cannot run honestly: color-contrast (axe-core's README: not
 * supported with JSDOM), color-contrast-enhanced, link-in-text-block
 * (both compare rendered colours), target-size (measures targets),
 * scrollable-region-focusable (needs scroll sizes). Rules our own rules
 * report are off too, so a problem is reported once: html-has-lang
 * (`html-lang`), document-title, heading-order and page-has-heading-one
 * (`heading-order`).
 */
export const AXE_RULES_OFF = [
  'color-contrast',
  'color-contrast-enhanced',
  'link-in-text-block',
  'target-size',
  'scrollable-region-focusable',
  'html-has-lang',
  'document-title',
  'heading-order',
  'page-has-heading-one',
] as const;

const SEVERITY_OF: Readonly<Record<string, FindingSeverity>> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'info',
};

type AxeLoader = (window: DOMWindow) => void;
let axeLoader: AxeLoader | undefined;

/**
 * axe-core's source, compiled once, as a function of the window it binds
 * (its own UMD wrapper takes `window`; `module` and `define` are hidden
 * so that it puts itself on that window rather than exporting itself).
 */
function compileAxe(): AxeLoader {
  const load = runInThisContext(
    `(function (window, module, define) {\n${axe.source}\n})`,
    { filename: 'axe-core/axe.js' },
  ) as (window: DOMWindow, module: undefined, define: undefined) => void;
  return (window) => load(window, undefined, undefined);
}

/** Nodes reported per axe rule; the report keeps fewer still. */
const MAX_NODES_PER_RULE = 50;

/**
 * axe-core's violations in a page, one finding a node: critical and
 * serious impacts are errors, moderate warnings, minor info. axe is
 * evaluated in the page's own window (its code binds the window it is
 * loaded in), which runs none of the page's scripts.
 */
export async function accessibilityFindings(
  window: DOMWindow,
): Promise<SiteFinding[]> {
  axeLoader ??= compileAxe();
  axeLoader(window);
  const pageAxe = (window as unknown as { axe: typeof axe }).axe;
  const results = await pageAxe.run(window.document, {
    resultTypes: ['violations'],
    // Nothing is fetched: the page's stylesheets are its own <style>s.
    preload: false,
    rules: Object.fromEntries(
      AXE_RULES_OFF.map((rule) => [rule, { enabled: false }]),
    ),
  });
  return results.violations.flatMap((violation) =>
    violation.nodes.slice(0, MAX_NODES_PER_RULE).map((node) => ({
      rule: violation.id,
      severity: SEVERITY_OF[violation.impact ?? 'minor'] ?? 'info',
      message: violation.help,
      selector: node.target.flat().join(' '),
    })),
  );
}
