/** When the request whose response carries a body was sent, by that body. */
const starts = new WeakMap<object, number>();

/**
 * Records that `body` answers a request sent at `startedAt` (ms since the epoch), so the total
 * time bound of its reading runs from the request's start, the wait for headers included.
 * @internal
 */
export function markRequestStart(body: object | null | undefined, startedAt: number): void {
  if (body !== null && body !== undefined) starts.set(body, startedAt);
}

/** When the request `body` answers was sent, if `postJson` recorded it. @internal */
export function requestStartOf(body: object): number | undefined {
  return starts.get(body);
}
