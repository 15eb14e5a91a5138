import { ConflictException, NotFoundException } from '@nestjs/common';
import type { ErrorCode } from '../failures/error-codes';
import type { WithBodyFields } from '../failures/body-fields';
import type { SiteReport } from '../site-check/site-report';

/** A refused publish's report carries at most this many findings. */
export const REPORT_FINDINGS_SHOWN = 50;

/** 404: the project has no current site (never published, or taken down). */
export class SiteNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'site_not_found';

  constructor() {
    super('Site not found');
  }
}

/** 404: rollback to a version the project never published. */
export class SiteVersionNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'site_version_not_found';

  constructor() {
    super('Site version not found');
  }
}

/** 409 at creation: publish needs the CODE section's chosen page. */
export class NoChosenPageException extends ConflictException {
  readonly code: ErrorCode = 'nothing_chosen';

  constructor() {
    super('The CODE section has no chosen landing page; choose one to publish');
  }
}

/** 409 at creation: the chosen page was never checked (and no `force`). */
export class SiteNotCheckedException extends ConflictException {
  readonly code: ErrorCode = 'site_not_checked';

  constructor() {
    super(
      'The chosen landing page has no site check report; run a site-check task first, or publish with force',
    );
  }
}

/**
 * 409 at creation: the chosen page's newest report has errors (and no
 * `force`). The body carries the report, its findings cut to the first
 * REPORT_FINDINGS_SHOWN.
 */
export class SiteCheckFailedException
  extends ConflictException
  implements WithBodyFields
{
  readonly code: ErrorCode = 'site_check_failed';
  readonly bodyFields: { report: RefusedReport };

  constructor(report: SiteReport) {
    super(
      'The site check found errors in the chosen landing page; fix them, or publish with force',
    );
    this.bodyFields = {
      report: {
        assetId: report.assetId,
        passed: report.passed,
        score: report.score,
        counts: report.counts,
        findings: report.findings.slice(0, REPORT_FINDINGS_SHOWN),
      },
    };
  }
}

/** What a refused publish's body shows of the report. */
export type RefusedReport = Pick<
  SiteReport,
  'assetId' | 'passed' | 'score' | 'counts' | 'findings'
>;
