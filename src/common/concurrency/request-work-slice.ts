/**
 * How long one slice of a request's synchronous work (parsing or walking a
 * body) may run before the event loop gets a turn, so no request holds the
 * other requests of the instance for more than a few milliseconds.
 */
export const SLICE_MS = 4;
