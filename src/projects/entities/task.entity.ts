import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Agent } from './agent.entity';
import { Project } from './project.entity';
import { Section } from './section.entity';
import { TimestampColumn } from './timestamp-column';

/** No endpoint creates tasks yet; they are read with a project. */
@Entity('tasks')
@Index('idx_tasks_project_created_id', ['projectId', 'createdAt', 'id'])
// Indexed so that deleting a section or agent (ON DELETE SET NULL) finds its
// tasks without scanning the table.
@Index('idx_tasks_section', ['sectionId'])
@Index('idx_tasks_agent', ['agentId'])
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

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 32 })
  status: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}
