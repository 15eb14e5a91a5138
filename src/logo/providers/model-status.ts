/**
 * What is known of a configured model's lifecycle: `available` (listed by
 * the provider without a shutdown date), `shutdown_scheduled` (a shutdown
 * date ahead), `gone` (not listed, or its date has passed), `unknown` (the
 * list was not read: another provider, or not yet).
 */
export type ModelStatus =
  'available' | 'shutdown_scheduled' | 'gone' | 'unknown';

export interface ModelLifecycleState {
  model: string;
  status: ModelStatus;
  shutdownDate: string | null;
}

/** One entry of OpenAI's GET /v1/models: `{ id, shutdown_date? }`. */
export interface ListedModel {
  id: string;
  shutdownDate: string | null;
}

/** The models of `{ object: "list", data: [{ id, shutdown_date }] }`. */
export function listedModels(body: unknown): ListedModel[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((entry: unknown) => {
    const { id, shutdown_date: date } = (entry ?? {}) as Record<
      string,
      unknown
    >;
    if (typeof id !== 'string') return [];
    return [{ id, shutdownDate: typeof date === 'string' ? date : null }];
  });
}

/** A model's status in the provider's list, on `today` (YYYY-MM-DD). */
export function statusInList(
  model: string,
  list: ListedModel[],
  today: string,
): ModelLifecycleState {
  const listed = list.find((entry) => entry.id === model);
  if (!listed) return { model, status: 'gone', shutdownDate: null };
  const { shutdownDate } = listed;
  if (shutdownDate === null) {
    return { model, status: 'available', shutdownDate };
  }
  return {
    model,
    status: shutdownDate <= today ? 'gone' : 'shutdown_scheduled',
    shutdownDate,
  };
}
