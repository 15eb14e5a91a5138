import type { Type } from '@nestjs/common';
import type { Transaction } from '../../database/database.service';
import type { ProducedAsset } from '../../assets/assets.service';
import type { TaskDto, TaskType } from '../dto/task.dto';

/** What a task's work is given. */
export interface TaskWork {
  task: TaskDto;
  project: {
    id: string;
    name: string;
    description: string | null;
    userId: string;
  };
  /** Aborted when the task is cancelled or deleted, or this worker stops. */
  signal: AbortSignal;
  /** Whose budget the upstream calls count against: the project's owner. */
  clientKey: string;
}

/**
 * One type of task: which default agent runs it, into which section, with
 * which input (validated as a request body is), and its work, which
 * returns the results to keep as assets of that section.
 */
export interface TaskKind {
  type: TaskType;
  agentType: 'DESIGN' | 'MARKETING' | 'CODE';
  sectionType: 'LOGO' | 'MARKETING' | 'CODE';
  input: Type<object>;
  /**
   * Checks of the input that need the database (a referenced asset), run
   * at creation once the input is valid; throws the client's error.
   */
  accept?(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<void>;
  /**
   * In the transaction that queues the task, once the project is known:
   * throws when the project does not allow this task now (409), else
   * returns the input to store, its defaults filled in.
   */
  prepare?(
    transaction: Transaction,
    projectId: string,
    input: Record<string, unknown>,
  ): Promise<Record<string, unknown>>;
  run(work: TaskWork): Promise<ProducedAsset[]>;
}

/** The kinds, one provider each; TasksModule gathers them. */
export const TASK_KINDS = Symbol('TASK_KINDS');
