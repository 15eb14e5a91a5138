import type { PgBoss } from 'pg-boss';

/** What wakeBusyWorkers needs of pg-boss. */
export type WorkerWaker = Pick<PgBoss, 'getWipData' | 'notifyWorker'>;

/**
 * Tells the workers of one `work()` call that hold a job to fetch again as
 * soon as they are done, instead of waiting out their poll.
 *
 * A worker that finishes a job otherwise fetches at once only on a NOTIFY
 * (a new job was sent meanwhile) or when pg-boss's queue statistics, read
 * every few seconds, show a backlog; a backlog queued faster than the
 * workers take it and then left alone ran 4 jobs per 2 s poll until the
 * statistics caught up. A worker whose last job came back finds the
 * next one, or an empty fetch sends it back to polling: at most one fetch
 * more per worker once the queue is empty.
 */
export function wakeBusyWorkers(boss: WorkerWaker, workId: string): void {
  for (const worker of boss.getWipData()) {
    if (worker.workId === workId && worker.count > 0) {
      boss.notifyWorker(worker.id);
    }
  }
}
