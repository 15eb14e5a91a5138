/** One measured batch of bench/ref-pg-boss.ts, as it prints it. */
export interface Batch {
  jobs: number;
  /** First send to the last handler's return (what finishedAt marks). */
  spanMs: number;
  jobsPerSecond: number;
  /** First to last send resolved. */
  submitSpanMs: number;
  /**
   * This process's CPU (/proc) from the first send until pg-boss marked
   * the last job completed, per job.
   */
  cpuUsPerJob: number;
  /**
   * Every PostgreSQL process's CPU over the same window, per job (read
   * outside this process's own window; noisy on a shared machine).
   */
  postgresCpuUsPerJob: number;
  /** send() called → handler called. */
  waitP50Ms: number;
}
