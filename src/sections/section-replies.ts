import { HttpStatus } from '@nestjs/common';
import type { JsonReply } from '../common/http/json-reply';
import { projectETag } from '../project-versions/project-version';
import type { SectionChange } from './sections.service';

/** 200 {section} with the project's new ETag, as a PATCH answers. */
export const sectionReply = (change: SectionChange): JsonReply => ({
  status: HttpStatus.OK,
  headers: { ETag: projectETag(change.version) },
  body: JSON.stringify({ section: change.section }),
});
