/**
 * What a run does after a site check, from the errors each check of the
 * run found so far (oldest first): publish when the last found none; fix
 * (landing-page with the report, then site-check again) while fixes are
 * left and the last fix made the errors fewer; else stop — publish
 * anyway only when forced, otherwise the run fails site_check_failed.
 */
export type AfterCheck = 'publish' | 'fix' | 'publish-forced' | 'stop';

export function afterSiteCheck(
  errorCounts: readonly number[],
  options: { maxFixes: number; force: boolean },
): AfterCheck {
  const last = errorCounts.at(-1);
  if (last === undefined) throw new Error('No site check to decide after');
  if (last === 0) return 'publish';
  const fixes = errorCounts.length - 1;
  const before = errorCounts.at(-2);
  const shrinking = before === undefined || last < before;
  if (fixes < options.maxFixes && shrinking) return 'fix';
  return options.force ? 'publish-forced' : 'stop';
}
