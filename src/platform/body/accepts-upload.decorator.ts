import { SetMetadata } from '@nestjs/common';

export const ACCEPTS_UPLOAD = 'workspace:accepts-upload';

/**
 * A route that also takes `multipart/form-data`: JsonBodyGuard leaves
 * such a body unread for the route's own multipart parser (bounded by its
 * limits), and reads any other body as JSON as on every route.
 */
export const AcceptsUpload = () => SetMetadata(ACCEPTS_UPLOAD, true);
