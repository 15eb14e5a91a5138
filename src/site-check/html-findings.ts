import { HtmlValidate, type ConfigData } from 'html-validate';
import type { SiteFinding } from './site-report';

/** Messages read from html-validate; the report keeps fewer still. */
const MAX_MESSAGES = 500;

/**
 * html-validate's `standard` preset (what the HTML standard requires, not
 * a style guide), less the rules our own rules or axe already report:
 * heading levels (`heading-order`), an empty title (`document-title`), an
 * image's alt text (axe's `image-alt`).
 */
const CONFIG: ConfigData = {
  extends: ['html-validate:standard'],
  rules: {
    'heading-level': 'off',
    'empty-title': 'off',
    'wcag/h37': 'off',
  },
};

let validator: HtmlValidate | undefined;

/**
 * HTML validity: html-validate's messages as findings named
 * `html:<its rule>`, its errors errors, its warnings warnings. The missing
 * `lang` of <html> it also reports is left to our `html-lang`.
 */
export function htmlValidityFindings(html: string): SiteFinding[] {
  validator ??= new HtmlValidate(CONFIG);
  const report = validator.validateStringSync(html);
  const messages = report.results
    .flatMap((result) => result.messages)
    .slice(0, MAX_MESSAGES);
  return messages
    .filter(
      (message) =>
        !(
          message.ruleId === 'element-required-attributes' &&
          message.selector === 'html' &&
          message.message.includes('"lang"')
        ),
    )
    .map((message) => ({
      rule: `html:${message.ruleId}`,
      severity: message.severity >= 2 ? 'error' : 'warning',
      message: `${message.message} (line ${message.line})`,
      ...(message.selector ? { selector: message.selector } : {}),
    }));
}
