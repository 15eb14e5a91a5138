import type { Type } from '@nestjs/common';
import type { Transaction } from '../../database/database.service';
import type { ProducedAsset } from '../../assets/assets.service';
import type { SectionType } from '../../sections/sections.constants';
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
  /**
   * Results kept already, by earlier attempts: the work makes only the
   * ones after these (the first `done` of its results are kept).
   */
  done: number;
  /**
   * Keeps one result now, as the next of the task's results, with the
   * task's progress, in one transaction (one at a time, in the order
   * called). Rejects when the project has no room for it or the task
   * moved on (cancelled, deleted, taken by another attempt).
   */
  keep(result: ProducedAsset): Promise<void>;
}

/**
 * One type of task: which default agent runs it, into which section, with
 * which input (validated as a request body is), and its work, which
 * keeps its results as assets of that section one by one, as it makes
 * them.
 */
export interface TaskKind {
  type: TaskType;
  agentType: 'DESIGN' | 'MARKETING' | 'CODE';
  sectionType: SectionType;
  input: Type<object>;
  /**
   * Checks of the input that need the database (a referenced asset), run
   * at creation once the input is valid, outside the queueing transaction
   * (they may read kept bytes); throws the client's error. Fields it
   * returns are stored with the input (a publish's gate: the page it
   * judged and the report it passed).
   */
  accept?(
    projectId: string,
    input: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<Record<string, unknown> | void>;
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
  /**
   * How many results a task of this (prepared) input keeps: its progress's
   * total, and what it needs of the project's room (1 when absent).
   */
  resultsOf?(input: Record<string, unknown>): number;
  /**
   * Its results are derived files that replace the project's earlier ones
   * (ProducedAsset.replaces): they do not count against
   * ASSET_MAX_PER_PROJECT, so creating the task checks no room.
   */
  derived?: boolean;
  /** Makes the results after `work.done` and keeps each by `work.keep`. */
  run(work: TaskWork): Promise<void>;
}

/** The kinds, one provider each; TasksModule gathers them. */
export const TASK_KINDS = Symbol('TASK_KINDS');
