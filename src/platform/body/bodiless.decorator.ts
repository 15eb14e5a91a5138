import { SetMetadata } from '@nestjs/common';

export const BODILESS = 'workspace:bodiless';

/**
 * A POST that takes no input (a task's cancel): an empty body is no body,
 * not invalid JSON. A body that is sent is still read as JSON.
 */
export const Bodiless = () => SetMetadata(BODILESS, true);
