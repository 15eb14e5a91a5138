import type { ColumnsAnswered } from '../../database/entity-columns';
import type { ProjectDto } from '../dto/project-responses.dto';
import {
  Column,
  Entity,
  Index,
  OneToMany,
  PrimaryColumn,
  VersionColumn,
} from 'typeorm';
import { Agent } from './agent.entity';
import { Asset } from './asset.entity';
import { Section } from './section.entity';
import { Task } from './task.entity';
import { TimestampColumn } from './timestamp-column';

@Entity('projects')
// Serve GET /api/projects with and without the userId filter, in list order.
@Index('idx_projects_user_updated', ['userId', 'updatedAt', 'id'])
@Index('idx_projects_updated', ['updatedAt', 'id'])
@Index('idx_projects_user_created', ['userId', 'createdAt', 'id'])
@Index('idx_projects_created', ['createdAt', 'id'])
// sort=name: on the folded name, an expression TypeORM cannot declare
// (migrations/1764560000000-project-list-orders.ts creates them).
@Index('idx_projects_user_name', { synchronize: false })
@Index('idx_projects_name', { synchronize: false })
export class Project {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text' })
  userId: string;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  // Starts at 1 and grows by one on every change, its assets' included,
  // moved on by ProjectScope only: the project's ETag. The default is
  // the one the migration that added the column gave existing rows;
  // TypeORM writes 1 itself on insert.
  @VersionColumn({ default: 1 })
  version: number;

  // Saving a new project inserts its default sections and agents with it.
  @OneToMany(() => Section, (section) => section.project, {
    cascade: ['insert'],
  })
  sections: Section[];

  @OneToMany(() => Agent, (agent) => agent.project, { cascade: ['insert'] })
  agents: Agent[];

  @OneToMany(() => Task, (task) => task.project)
  tasks: Task[];

  @OneToMany(() => Asset, (asset) => asset.project)
  assets: Asset[];
}

/**
 * Every column is a field of ProjectDto, but the internal ones: `version`
 * is the ETag, never a member of the body.
 */
export const PROJECT_COLUMNS_ANSWERED: ColumnsAnswered<
  Project,
  ProjectDto,
  'version'
> = true;
