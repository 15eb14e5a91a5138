/**
 * SVG answers a hostile (or hijacked) model could give, each trying to run
 * script or fetch something from `beacon`, a URL the tests watch: the dev
 * text API answers them on demand (`TEXT_DEV_REPLY=hostile-svg`, or
 * `replyNext({kind: 'hostile-svg', hostile})`) so that the service's
 * rebuilding of model SVG is tested against what it must never serve.
 * Each but the last two also draws a circle: what is left once rebuilt.
 */
export const HOSTILE_SVGS = {
  script: (beacon: string) =>
    svg(`<script>fetch('${beacon}/script')</script>${CIRCLE}`),
  onload: (beacon: string) =>
    svg(CIRCLE, ` onload="fetch('${beacon}/onload')"`),
  'external-image': (beacon: string) =>
    svg(`<image href="${beacon}/image.png" width="24" height="24"/>${CIRCLE}`),
  'foreign-object': (beacon: string) =>
    svg(
      `<foreignObject width="24" height="24"><div xmlns="http://www.w3.org/1999/xhtml"><img src="${beacon}/foreign-img"/><iframe src="${beacon}/foreign-iframe"></iframe></div></foreignObject>${CIRCLE}`,
    ),
  'use-external': (beacon: string) =>
    svg(
      `<use href="${beacon}/use.svg#a"/><use xlink:href="${beacon}/use-xlink.svg#a"/>${CIRCLE}`,
      ' xmlns:xlink="http://www.w3.org/1999/xlink"',
    ),
  'css-url': (beacon: string) =>
    svg(
      `<style>@import url(${beacon}/import.css); circle { fill: url(${beacon}/css-fill) }</style><circle cx="12" cy="12" r="8" style="stroke:url('${beacon}/css-stroke')"/><rect width="4" height="4" fill="url(${beacon}/fill-attribute)"/>`,
    ),
  namespace: (beacon: string) =>
    svg(
      `<h:script xmlns:h="http://www.w3.org/1999/xhtml">fetch('${beacon}/ns-script')</h:script><g xmlns="http://www.w3.org/1999/xhtml"><img src="${beacon}/ns-img"/></g><svg:image xmlns:svg="http://www.w3.org/2000/svg" href="${beacon}/ns-image"/>${CIRCLE}`,
    ),
  'javascript-href': (beacon: string) =>
    svg(
      `<a href="javascript:fetch('${beacon}/a')"><circle cx="12" cy="12" r="8"/></a><use href="#c"><set attributeName="href" to="javascript:fetch('${beacon}/set')"/></use><circle id="c" r="2"/>`,
    ),
  /** An external entity: refused whole (invalid_answer), never expanded. */
  entity: (beacon: string) =>
    `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "${beacon}/entity">]>${svg(`<text>&x;</text>${CIRCLE}`)}`,
  /** Nothing but script: nothing drawable is left (invalid_answer). */
  'script-only': (beacon: string) =>
    svg(`<script>fetch('${beacon}/script-only')</script>`),
} satisfies Record<string, (beacon: string) => string>;

export type HostileSvgName = keyof typeof HOSTILE_SVGS;

export const HOSTILE_SVG_NAMES = Object.keys(HOSTILE_SVGS) as HostileSvgName[];

const CIRCLE = '<circle cx="12" cy="12" r="8"/>';

function svg(inner: string, attributes = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"${attributes}>${inner}</svg>`;
}
