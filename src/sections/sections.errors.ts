import type { ErrorCode } from '../failures/error-codes';
import { ConflictException, NotFoundException } from '@nestjs/common';

/** 404 {error:"Section not found"}: the project has no such section. */
export class SectionNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'section_not_found';

  constructor() {
    super('Section not found');
  }
}

/**
 * 404 {error:"Asset not found"}: the project has no such asset (the asset
 * routes' own text; sections imports nothing of assets).
 */
export class SelectedAssetNotFoundException extends NotFoundException {
  readonly code: ErrorCode = 'asset_not_found';

  constructor() {
    super('Asset not found');
  }
}

export const SECTION_IN_PROGRESS_MESSAGE =
  'A task is running for this section; choose a result once it has finished';
export const NOT_A_RESULT_MESSAGE =
  'This asset is not a result of this section';
export const NOTHING_CHOSEN_MESSAGE = 'No result of this section is chosen';

/**
 * 409: choosing while a task runs for the section; the results are not
 * final, and the task's own would come in after the choice.
 */
export class SectionInProgressException extends ConflictException {
  readonly code: ErrorCode = 'section_in_progress';

  constructor() {
    super(SECTION_IN_PROGRESS_MESSAGE);
  }
}

/** 409: the asset exists in the project but belongs to another section. */
export class NotAResultOfSectionException extends ConflictException {
  readonly code: ErrorCode = 'not_a_result_of_section';

  constructor() {
    super(NOT_A_RESULT_MESSAGE);
  }
}

/** 409: DELETE of a selection when there is none to remove. */
export class NothingChosenException extends ConflictException {
  readonly code: ErrorCode = 'nothing_chosen';

  constructor() {
    super(NOTHING_CHOSEN_MESSAGE);
  }
}
