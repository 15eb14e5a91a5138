import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Project } from './project.entity';
import { Section } from './section.entity';
import { TimestampColumn } from './timestamp.column';

/** No endpoint creates assets yet; they are read with a project. */
@Entity('assets')
@Index('idx_assets_project_created', ['projectId', 'createdAt', 'id'])
@Index('idx_assets_section', ['sectionId'])
export class Asset {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  projectId: string;

  @ManyToOne(() => Project, (project) => project.assets, {
    onDelete: 'CASCADE',
  })
  @JoinColumn({ name: 'projectId' })
  project?: Project;

  @Column({ type: 'varchar', length: 36, nullable: true })
  sectionId: string | null;

  @ManyToOne(() => Section, (section) => section.assets, {
    onDelete: 'SET NULL',
  })
  @JoinColumn({ name: 'sectionId' })
  section?: Section | null;

  @Column({ type: 'varchar', length: 32 })
  type: string;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ type: 'text' })
  url: string;

  @TimestampColumn()
  createdAt: Date;
}
