import type { RunDto } from '../runs/dto/run.dto';
import { Injectable } from '@nestjs/common';
import { AssetUrls } from '../assets/asset-urls';
import {
  toAssetDto,
  type AssetDto,
  type AssetRecord,
} from '../assets/dto/asset.dto';
import {
  BULKY_PART,
  type ChangeEvent,
  type ChangeEventType,
} from '../change-log/change-event';
import type { ProjectValues } from '../projects/project-change-values';
import type { SectionDto } from '../sections/dto/section.dto';
import type { TaskDto } from '../tasks/dto/task.dto';

/** What the events carry of what changed, as the routes' answers show it. */
export interface PresentedShapes {
  asset: AssetDto;
  task: TaskDto;
  section: SectionDto;
  projectValues: ProjectValues;
  run: RunDto;
}

/** An event as a stream sends it. */
export type PresentedChangeEvent = ChangeEvent<PresentedShapes>;

const bulkyPartOf = (type: ChangeEventType): string | undefined =>
  (BULKY_PART as Partial<Record<ChangeEventType, string>>)[type];

/**
 * Makes a logged event what a stream sends, as it is sent: the asset of
 * an asset.created gets its url from the asset routes' own presenter,
 * for the origin the stream was opened at and, with signed URLs, valid
 * from now, its thumbnailUrl with it (the log is read by every replica, each behind its own origin,
 * and a URL signed when the change was made could have expired before a
 * resume reads it). An event without its bulky part (recorded before the
 * log carried it) is marked `truncated`, as one cut for its size is: the
 * client refetches.
 */
@Injectable()
export class EventPresenter {
  constructor(private readonly urls: AssetUrls) {}

  present(event: ChangeEvent, baseUrl: string): PresentedChangeEvent {
    const part = bulkyPartOf(event.type);
    if (part === undefined) return event as PresentedChangeEvent;
    const data = event.data as Record<string, unknown>;
    if (data[part] === undefined) {
      return {
        ...event,
        data: { ...data, truncated: true },
      } as PresentedChangeEvent;
    }
    if (event.type !== 'asset.created') return event as PresentedChangeEvent;
    const asset = data.asset as AssetRecord;
    return {
      ...event,
      data: {
        ...event.data,
        asset: toAssetDto(asset, this.urls.answerUrlsOf(asset, baseUrl)),
      },
    };
  }
}
