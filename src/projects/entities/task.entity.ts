import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type { ColumnsAnswered } from '../../database/entity-columns';
import type { TaskDto, TaskInternalColumn } from '../../tasks/dto/task.dto';
import { Agent } from './agent.entity';
import { Project } from './project.entity';
import { Section } from './section.entity';
import { TimestampColumn } from './timestamp-column';

/**
 * Work one of the project's agents runs into one of its sections
 * (src/tasks). `input`, `assetIds` and `error` hold JSON text the service
 * wrote; the tasks repository reads and writes them, never TypeORM's save.
 */
@Entity('tasks')
@Index('idx_tasks_project_created_id', ['projectId', 'createdAt', 'id'])
// Indexed so that deleting a section or agent (ON DELETE SET NULL) finds its
// tasks without scanning the table.
@Index('idx_tasks_section', ['sectionId'])
@Index('idx_tasks_agent', ['agentId'])
// The embedded engine's claim: due queued tasks, lapsed running ones.
@Index('idx_tasks_status_run_after', ['status', 'runAfter'])
// ... taken round robin by user: lowest place in its owner's line first.
@Index('idx_tasks_status_place_run_after_id', [
  'status',
  'queuePlace',
  'runAfter',
  'id',
])
// The embedded engine's scan for lapsed leases, oldest first.
@Index('idx_tasks_status_lease_id', ['status', 'leaseUntil', 'id'])
export class Task {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  projectId: string;

  @ManyToOne(() => Project, (project) => project.tasks, {
    onDelete: 'CASCADE',
  })
  @JoinColumn({ name: 'projectId' })
  project?: Project;

  @Column({ type: 'varchar', length: 36, nullable: true })
  sectionId: string | null;

  @ManyToOne(() => Section, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'sectionId' })
  section?: Section | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  agentId: string | null;

  @ManyToOne(() => Agent, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'agentId' })
  agent?: Agent | null;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  @Column({ type: 'text' })
  input: string;

  @Column({ type: 'text' })
  assetIds: string;

  /** `{"done":n,"total":m}`, written by the tasks repository only. */
  @Column({ type: 'text', default: '{"done":0,"total":1}' })
  progress: string;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn({ nullable: true })
  startedAt: Date | null;

  @TimestampColumn({ nullable: true })
  finishedAt: Date | null;

  @TimestampColumn()
  updatedAt: Date;

  @TimestampColumn()
  runAfter: Date;

  @TimestampColumn({ nullable: true })
  leaseUntil: Date | null;

  /**
   * How many of the owner's tasks were unfinished when this one was
   * queued: the embedded engine takes lower places first (round robin by
   * user).
   */
  @Column({ type: 'integer', default: 0 })
  queuePlace: number;
}

/**
 * Every column is a field of TaskDto, but the internal ones
 * (TaskInternalColumn, beside TaskDto: the tasks repository's INSERT
 * names every column from the two). `input`, `assetIds`, `progress` and
 * `error` are JSON text the repository parses.
 */
export const TASK_COLUMNS_ANSWERED: ColumnsAnswered<
  Task,
  TaskDto,
  TaskInternalColumn,
  'input' | 'assetIds' | 'progress' | 'error'
> = true;
