import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryColumn,
} from 'typeorm';
import type { ColumnsAnswered } from '../../database/entity-columns';
import type { SectionDto } from '../../sections/dto/section.dto';
import type { SectionStatus, SectionType } from '../projects.constants';
import { Asset } from './asset.entity';
import { Project } from './project.entity';
import { TimestampColumn } from './timestamp-column';

@Entity('sections')
@Index('idx_sections_project_position', ['projectId', 'position'])
export class Section {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 36 })
  projectId: string;

  @ManyToOne(() => Project, (project) => project.sections, {
    onDelete: 'CASCADE',
  })
  @JoinColumn({ name: 'projectId' })
  project?: Project;

  @Column({ type: 'varchar', length: 32 })
  type: SectionType;

  @Column({ type: 'varchar', length: 32 })
  status: SectionStatus;

  /** The result chosen from its assets (PUT …/selection), or null. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  selectedAssetId: string | null;

  @ManyToOne(() => Asset, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'selectedAssetId' })
  selectedAsset?: Asset | null;

  /** Display order; never rely on insertion or id order. */
  @Column({ type: 'integer' })
  position: number;

  @TimestampColumn()
  createdAt: Date;

  @TimestampColumn()
  updatedAt: Date;

  @OneToMany(() => Asset, (asset) => asset.section)
  assets?: Asset[];
}

/**
 * Every column is a field of SectionDto, but the internal ones: `position`
 * orders the sections of an answer and is not shown.
 */
export const SECTION_COLUMNS_ANSWERED: ColumnsAnswered<
  Section,
  SectionDto,
  'position'
> = true;
