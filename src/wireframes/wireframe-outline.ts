import type { Wireframe, WireframeSection } from './wireframe';

/** The page a landing page follows: `home` when planned, else the first. */
export function landingPageOf(wireframe: Wireframe) {
  return (
    wireframe.pages.find((page) => page.name === 'home') ?? wireframe.pages[0]
  );
}

const quoted = (text: string) => JSON.stringify(text);

/** One section as a line of the landing page's request: type, heading, copy. */
export function sectionLine(section: WireframeSection, index: number): string {
  return [
    `${index + 1}. ${section.type}: heading ${quoted(section.heading)}`,
    ...(section.body ? [`copy ${quoted(section.body)}`] : []),
    ...(section.items?.length
      ? [
          `items ${section.items
            .map((item) =>
              item.text
                ? `${quoted(item.title)} (${quoted(item.text)})`
                : quoted(item.title),
            )
            .join(', ')}`,
        ]
      : []),
    ...(section.cta ? [`button ${quoted(section.cta.label)}`] : []),
  ].join('; ');
}

/**
 * The sections a landing page is asked for, in order, one line each:
 * the chosen wireframe's landing page, as data for the code model.
 */
export function wireframeOutline(wireframe: Wireframe): string[] {
  return landingPageOf(wireframe).sections.map(sectionLine);
}
