import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Messages } from '../../common/validation/messages';
import { Optional } from '../../common/validation/optional.decorator';
import {
  NO_NUL_PATTERN,
  StorableText,
} from '../../common/validation/storable-text.decorator';
import {
  LIST_SORTS,
  LIST_VIEWS,
  SORT_ORDERS,
  type ListSort,
  type ListView,
  type SortOrder,
} from '../list-order';
import { CURSOR_EXAMPLE } from './cursor-example';

export const PAGE_LIMIT_MAX = 500;

/** The longest `q`: a search box's words, not a document. */
export const SEARCH_MAX_LENGTH = 100;

export const INCLUDE_TOTAL_VALUES = ['true', 'false'] as const;

/**
 * The list's query: the user filter, plus optional pagination: without
 * `limit` the response is the full list. A repeated parameter (an array)
 * is invalid input.
 */
export class ListProjectsQuery {
  @ApiPropertyOptional({
    description: 'Only the projects of this user (exact match)',
    pattern: NO_NUL_PATTERN,
    example: 'user-1',
  })
  @Optional()
  @IsString(Messages.string())
  @StorableText()
  userId?: string;

  /** Page size; the response then carries `nextCursor`. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: PAGE_LIMIT_MAX,
    example: 20,
  })
  @Optional()
  @Type(() => Number)
  @IsInt(Messages.integer())
  @Min(1, Messages.minNumber(1))
  @Max(PAGE_LIMIT_MAX, Messages.maxNumber(PAGE_LIMIT_MAX))
  limit?: number;

  /** The `nextCursor` of the previous page (opaque). Needs `limit`. */
  @ApiPropertyOptional({
    example: CURSOR_EXAMPLE,
  })
  @Optional()
  @IsString(Messages.string())
  cursor?: string;

  @ApiPropertyOptional({
    description:
      'Only projects whose name or description contains this text (case-insensitive for ASCII letters, exact for others; `%` and `_` are plain characters). Empty: no filter. Needs `limit`.',
    maxLength: SEARCH_MAX_LENGTH,
    pattern: NO_NUL_PATTERN,
    example: 'launch',
  })
  @Optional()
  @IsString(Messages.string())
  @MaxLength(SEARCH_MAX_LENGTH, Messages.maxChars(SEARCH_MAX_LENGTH))
  @StorableText()
  q?: string;

  @ApiPropertyOptional({
    enum: LIST_SORTS,
    description:
      'The key the page is ordered by (ties: by id, in the same direction). Default `updatedAt`. `name` orders by the name with ASCII letters folded to lower case. Needs `limit`.',
    example: 'name',
  })
  @Optional()
  @IsIn(LIST_SORTS, Messages.oneOf(LIST_SORTS))
  sort?: ListSort;

  @ApiPropertyOptional({
    enum: SORT_ORDERS,
    description:
      'Default `asc` for `sort=name`, `desc` (newest first) for the times. Needs `limit`.',
    example: 'asc',
  })
  @Optional()
  @IsIn(SORT_ORDERS, Messages.oneOf(SORT_ORDERS))
  order?: SortOrder;

  @ApiPropertyOptional({
    enum: LIST_VIEWS,
    description:
      '`full` (default): each project as the full list shows it. `summary`: what a list page shows — the project, its sections as `{id, type, status}`, `_count` and `logoThumbnailUrl`; no agents, no tasks. Needs `limit`.',
    example: 'summary',
  })
  @Optional()
  @IsIn(LIST_VIEWS, Messages.oneOf(LIST_VIEWS))
  view?: ListView;

  @ApiPropertyOptional({
    enum: INCLUDE_TOTAL_VALUES,
    description:
      '`true`: the answer also carries `total` (the projects that match `userId` and `q`, on every page) and the header `X-Total-Count`. Costs a count over every match: ask on the first page only. Needs `limit`.',
    example: 'true',
  })
  @Optional()
  @IsIn(INCLUDE_TOTAL_VALUES, Messages.oneOf(INCLUDE_TOTAL_VALUES))
  includeTotal?: (typeof INCLUDE_TOTAL_VALUES)[number];
}

/** The parameters that shape a page, so they need `limit`. */
export const PAGE_PARAMETERS = [
  'cursor',
  'q',
  'sort',
  'order',
  'view',
  'includeTotal',
] as const satisfies ReadonlyArray<keyof ListProjectsQuery>;

/** Whether the query asks for a page rather than the full (streamed) list. */
export const asksForPage = (query: ListProjectsQuery): boolean =>
  query.limit !== undefined ||
  PAGE_PARAMETERS.some((name) => query[name] !== undefined);
