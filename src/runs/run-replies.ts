import { HttpStatus } from '@nestjs/common';
import { Reply } from '../common/http/reply';
import type { RunDto } from './dto/run.dto';

/** Where a run is read. */
export const runLocation = (run: RunDto): string =>
  `/api/projects/${encodeURIComponent(run.projectId)}/runs/${encodeURIComponent(run.id)}`;

/** 202 {run} with its Location: its steps run in the background. */
export const acceptedRunReply = (run: RunDto): Reply =>
  new Reply(
    HttpStatus.ACCEPTED,
    { Location: runLocation(run) },
    JSON.stringify({ run }),
  );

/** 200 {run}. */
export const runReply = (run: RunDto): Reply =>
  new Reply(HttpStatus.OK, {}, JSON.stringify({ run }));

/** 200 {runs, nextCursor}. */
export const runsPageReply = (page: {
  runs: RunDto[];
  nextCursor: string | null;
}): Reply => new Reply(HttpStatus.OK, {}, JSON.stringify(page));
