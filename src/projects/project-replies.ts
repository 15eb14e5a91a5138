import { HttpStatus } from '@nestjs/common';
import type { JsonReply } from '../common/http/json-reply';
import type { ProjectDocument, ProjectRead } from './project-document';
import { projectETag } from '../project-versions/project-version';

/**
 * How the project routes' results are answered over HTTP: the status and
 * the headers each carries. The one place they are decided, also for the
 * answer an Idempotency-Key stores (so a replay is the same answer).
 */

/** 201 with the new project's ETag and Location. */
export const createdProjectReply = (project: ProjectDocument): JsonReply => ({
  status: HttpStatus.CREATED,
  headers: {
    ETag: projectETag(project.version),
    Location: `/api/projects/${encodeURIComponent(project.id)}`,
  },
  body: project.json,
});

/** 200 with the project's ETag. */
export const projectReply = (project: ProjectDocument): JsonReply => ({
  status: HttpStatus.OK,
  headers: { ETag: projectETag(project.version, project.urlsExpire) },
  body: project.json,
});

/** 200, or 304 without a body when the client's copy is current. */
export const projectReadReply = (read: ProjectRead): JsonReply =>
  'unchanged' in read
    ? {
        status: HttpStatus.NOT_MODIFIED,
        headers: { ETag: projectETag(read.version, read.urlsExpire) },
      }
    : projectReply(read);
