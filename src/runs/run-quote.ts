import type { RunStepType } from './run-graph';

/** The most model calls a run will make, told before it makes any. */
export interface RunQuote {
  imageCalls: number;
  textCalls: number;
  maxFixes: number;
}

type Inputs = Partial<Record<RunStepType, Record<string, unknown>>>;

const lengthOf = (value: unknown): number =>
  Array.isArray(value) ? value.length : 0;

/**
 * Upper bounds from the steps and their validated inputs: a logo's
 * candidates (its `count`, 1 when left out); every icon of an icon set
 * (only those Lucide lacks are drawn by a model, which is not known
 * before it runs); the hero of graphics when asked for; one text call
 * each for marketing copy, the wireframe and the landing page, and one
 * per fix. A brand kit, a site check and publishing call no model.
 */
export function quoteOf(
  steps: readonly RunStepType[],
  input: Inputs,
  maxFixes: number,
): RunQuote {
  const has = (type: RunStepType) => steps.includes(type);
  const fixes = has('site-check') ? maxFixes : 0;
  let imageCalls = 0;
  let textCalls = fixes;
  if (has('logo')) {
    const count = input.logo?.count;
    imageCalls += typeof count === 'number' ? count : 1;
  }
  if (has('icon-set')) imageCalls += lengthOf(input['icon-set']?.names);
  if (has('graphics')) {
    const formats = input.graphics?.formats;
    if (Array.isArray(formats) && formats.includes('hero')) imageCalls += 1;
  }
  for (const type of ['marketing-copy', 'wireframe', 'landing-page'] as const) {
    if (has(type)) textCalls += 1;
  }
  return { imageCalls, textCalls, maxFixes: fixes };
}
