import {
  BULKY_PART,
  EVENT_DATA_LIMIT_BYTES,
  type ChangeEventType,
} from './change-event';

/**
 * An event's data as the log stores it: its JSON, or, past
 * EVENT_DATA_LIMIT_BYTES, the JSON without the type's bulky part and with
 * `truncated: true` (the reader refetches what it left out). The other
 * types carry ids and statuses only, far below the limit.
 */
export function eventDataJson(type: ChangeEventType, data: object): string {
  const json = JSON.stringify(data);
  if (Buffer.byteLength(json) <= EVENT_DATA_LIMIT_BYTES) return json;
  const part: string | undefined = BULKY_PART[type as keyof typeof BULKY_PART];
  if (part === undefined) return json;
  const kept: Record<string, unknown> = { ...data };
  delete kept[part];
  return JSON.stringify({ ...kept, truncated: true });
}
