import { contrastRatio, parseCssColour } from './css-colours';
import { selectorOf } from './element-selector';
import type { SiteFinding } from './site-report';

/** WCAG 2 AA for body text. */
export const AA_RATIO = 4.5;
/** Below this even large text fails AA (3:1): an error, not a warning. */
export const LARGE_TEXT_RATIO = 3;

/** Style rules and styled elements read; a landing page has far fewer. */
const MAX_RULES = 5_000;

interface Declared {
  color: string;
  backgroundColor: string;
}

/**
 * The contrast of a text colour and a background colour declared
 * together (one style rule, or one style attribute), as the page's author
 * wrote them; undefined when either is missing, not a colour we read, or
 * a translucent background (what shows through is not known without
 * layout).
 */
export function declaredRatio(style: Declared): number | undefined {
  const text = style.color && parseCssColour(style.color);
  const background =
    style.backgroundColor && parseCssColour(style.backgroundColor);
  if (!text || !background || background.a < 1) return undefined;
  return contrastRatio(text, background);
}

function findingFor(
  ratio: number | undefined,
  where: string,
  selector: string,
): SiteFinding[] {
  if (ratio === undefined || ratio >= AA_RATIO) return [];
  return [
    {
      rule: 'color-contrast-declared',
      severity: ratio < LARGE_TEXT_RATIO ? 'error' : 'warning',
      message: `${where}: text colour on its background has contrast ${ratio.toFixed(2)}:1, below WCAG AA 4.5:1`,
      selector,
    },
  ];
}

/** Style rules of a sheet, inside @media and @supports too. */
function styleRulesOf(rules: CSSRuleList, into: CSSStyleRule[]): void {
  for (const rule of [...rules]) {
    if (into.length >= MAX_RULES) return;
    if ('selectorText' in rule && 'style' in rule) {
      into.push(rule as CSSStyleRule);
    } else if ('cssRules' in rule) {
      styleRulesOf((rule as CSSGroupingRule).cssRules, into);
    }
  }
}

/**
 * `color-contrast-declared`: colours declared together in CSS (a rule of
 * a <style> element, or a style attribute) whose contrast is below WCAG
 * AA (4.5:1): a warning, an error below 3:1. Colours inherited or
 * layered are not judged: without layout, what is under a text is not
 * known (axe's own color-contrast needs layout and is off).
 */
export function declaredContrastFindings(document: Document): SiteFinding[] {
  const findings: SiteFinding[] = [];
  const rules: CSSStyleRule[] = [];
  for (const sheet of [...document.styleSheets]) {
    styleRulesOf(sheet.cssRules, rules);
  }
  for (const rule of rules) {
    findings.push(
      ...findingFor(
        declaredRatio(rule.style),
        `CSS rule "${rule.selectorText.slice(0, 80)}"`,
        rule.selectorText.slice(0, 200),
      ),
    );
  }
  const styled = [...document.querySelectorAll('[style]')].slice(0, MAX_RULES);
  for (const element of styled) {
    const style = (element as HTMLElement).style;
    const selector = selectorOf(element);
    findings.push(
      ...findingFor(declaredRatio(style), `style of ${selector}`, selector),
    );
  }
  return findings;
}
