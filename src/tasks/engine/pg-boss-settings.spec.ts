import { tasksConfig } from '../tasks.config';
import {
  pgBossOptions,
  priorityOf,
  queueOptions,
  workOptions,
} from './pg-boss-settings';

const database = {
  type: 'postgres' as const,
  url: 'postgres://db.example/app',
  poolSize: 10,
  ssl: true,
  connectTimeoutMs: 3000,
  statementTimeoutMs: 5000,
  listPoolSize: 2,
};

describe('pg-boss settings', () => {
  it("pg-boss runs in its own schema on the service's database, woken by NOTIFY", () => {
    expect(pgBossOptions(database)).toMatchObject({
      connectionString: 'postgres://db.example/app',
      ssl: { rejectUnauthorized: true },
      connectionTimeoutMillis: 3000,
      schema: 'pgboss',
      max: 4,
      useListenNotify: true,
      // The backlog statistics the workers burst on stay fresh.
      queueCacheIntervalSeconds: 5,
    });
    expect(pgBossOptions({ ...database, ssl: false }).ssl).toBeUndefined();
  });

  it("the queue's heartbeat is the task lease, with a retry per attempt and one for a killed worker", () => {
    const config = tasksConfig({ TASK_LEASE_S: '30', TASK_MAX_ATTEMPTS: '3' });
    expect(queueOptions(config)).toMatchObject({
      heartbeatSeconds: 30,
      retryLimit: 4,
      retryDelay: 0,
      notify: true,
    });
  });

  it('workers take one job per fetch, `concurrency` at once, and burst on a backlog', () => {
    expect(workOptions(6)).toMatchObject({
      batchSize: 1,
      localConcurrency: 6,
      pollingIntervalSeconds: 2,
      burstWhenReadyExceeds: 1,
    });
  });

  it("a task's priority is minus its owner's backlog", () => {
    expect(priorityOf(0)).toBe(-0);
    expect(priorityOf(3)).toBe(-3);
    expect(priorityOf(-2)).toBe(-0);
  });
});
