import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import { jsonArrayText, jsonObjectText } from '../common/http/json-text';
import type { ProjectDocument, ProjectRead } from './project-document';
import type { ProjectPageResult } from './projects.service';
import { projectETag } from '../project-scope/project-version';

/**
 * How the project routes' results are answered over HTTP: the status and
 * the headers each carries. The one place they are decided, also for the
 * answer an Idempotency-Key stores (so a replay is the same answer).
 */

/** 201 with the new project's ETag and Location. */
export const createdProjectReply = (project: ProjectDocument): Reply =>
  new Reply(
    HttpStatus.CREATED,
    {
      ETag: projectETag(project.version),
      Location: `/api/projects/${encodeURIComponent(project.id)}`,
    },
    project.json,
  );

/** 200 with the project's ETag. */
export const projectReply = (project: ProjectDocument): Reply =>
  new Reply(
    HttpStatus.OK,
    { ETag: projectETag(project.version, project.urlsExpire) },
    project.json,
  );

/** 200, or 304 without a body when the client's copy is current. */
export const projectReadReply = (read: ProjectRead): Reply =>
  'unchanged' in read
    ? new Reply(HttpStatus.NOT_MODIFIED, {
        ETag: projectETag(read.version, read.urlsExpire),
      })
    : projectReply(read);

/**
 * 200 with a page of the list: `{projects, nextCursor}`, and with a total
 * `total` after them and the same number in `X-Total-Count`.
 */
export const projectPageReply = (page: ProjectPageResult): Reply =>
  new Reply(
    HttpStatus.OK,
    page.total === undefined ? {} : { 'X-Total-Count': String(page.total) },
    jsonObjectText({
      projects: jsonArrayText(page.projects),
      nextCursor: JSON.stringify(page.nextCursor),
      total: page.total === undefined ? undefined : String(page.total),
    }),
  );
