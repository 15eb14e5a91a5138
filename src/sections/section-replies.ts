import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import { projectETag } from '../project-scope/project-version';
import type { SectionChange } from './sections.service';

/** 200 {section} with the project's new ETag, as a PATCH answers. */
export const sectionReply = (change: SectionChange): Reply =>
  new Reply(
    HttpStatus.OK,
    { ETag: projectETag(change.version) },
    JSON.stringify({ section: change.section }),
  );
