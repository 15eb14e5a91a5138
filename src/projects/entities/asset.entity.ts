import type { AssetKind, AssetRecord } from '../../assets/dto/asset.dto';
import type { ColumnsAnswered } from '../../database/entity-columns';
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
import { TimestampColumn } from './timestamp-column';

/**
 * A kept logo of a project, in its LOGO section. The row describes the
 * bytes; the bytes themselves are in asset_contents or an S3 bucket
 * (src/assets), and the URL that serves them is made for each answer.
 */
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
  kind: AssetKind;

  @Column({ type: 'varchar', length: 32 })
  contentType: string;

  @Column({ type: 'integer' })
  byteSize: number;

  /** Lowercase hex SHA-256 of the bytes. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ type: 'text' })
  prompt: string;

  @Column({ type: 'text' })
  model: string;

  @TimestampColumn()
  createdAt: Date;

  /** A file name for saving the bytes (assets/asset-file-names.ts). */
  @Column({ type: 'text', default: '' })
  fileName: string;

  /** Pixels of a PNG, JPEG or WebP; null for other types (and until backfilled). */
  @Column({ type: 'integer', nullable: true })
  width: number | null;

  @Column({ type: 'integer', nullable: true })
  height: number | null;
}

/**
 * Every column is a stored field of AssetDto (its url and thumbnailUrl are
 * made per answer),
 * and the other way round; no column is internal.
 */
export const ASSET_COLUMNS_ANSWERED: ColumnsAnswered<
  Asset,
  AssetRecord,
  never
> = true;
