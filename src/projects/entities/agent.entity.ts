import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import type {
  AgentProvider,
  AgentStatus,
  AgentType,
} from '../projects.constants';
import type { ColumnsAnswered } from '../../database/entity-columns';
import type { AgentDto } from '../dto/project-responses.dto';
import { Project } from './project.entity';
import { TimestampColumn } from './timestamp-column';

@Entity('agents')
@Index('idx_agents_project_created', ['projectId', 'createdAt', 'id'])
export class Agent {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  projectId: string;

  @ManyToOne(() => Project, (project) => project.agents, {
    onDelete: 'CASCADE',
  })
  @JoinColumn({ name: 'projectId' })
  project?: Project;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'varchar', length: 32 })
  type: AgentType;

  @Column({ type: 'varchar', length: 32 })
  provider: AgentProvider;

  @Column({ type: 'varchar', length: 32 })
  status: AgentStatus;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;
}

/** Every column is a field of AgentDto, and the other way round. */
export const AGENT_COLUMNS_ANSWERED: ColumnsAnswered<Agent, AgentDto, never> =
  true;
