import type { UpstreamBudget } from '../../logo/upstream-budget';
import type { TaskWork } from './task-kind';

/**
 * Whom a task's paid image call counts against: the task's client, its
 * project and task for spend, and the task's signal to cancel it.
 */
export function upstreamCallerOf(work: TaskWork): UpstreamBudget {
  return {
    clientKey: work.clientKey,
    usage: {
      userKey: work.clientKey,
      projectId: work.project.id,
      taskId: work.task.id,
    },
    // The owner is the client and its own address: tasks of different
    // users never share an address's share of the line.
    address: work.clientKey,
    signal: work.signal,
  };
}
