import type { ToolCallView } from './trace-view.js';

/** The least share of a turn's width a bar takes (a deferred call's bar has room for its label). @internal */
export const minimumBarShare = (call: Pick<ToolCallView, 'status'>): number =>
  call.status === 'deferred' ? 0.09 : 0.03;

/**
 * Where a call's bar sits within its turn, as shares of the turn's width: at least
 * {@link minimumBarShare} wide and pulled left so it never passes the turn's end.
 * @internal
 */
export function barExtent(
  call: ToolCallView,
  start: number,
  end: number,
): { readonly left: number; readonly width: number } {
  const span = Math.max(end - start, 1);
  const width = Math.min(1, Math.max(((call.end ?? end) - call.start) / span, minimumBarShare(call)));
  const left = Math.min(Math.max((call.start - start) / span, 0), 1 - width);
  return { left, width };
}

/**
 * Puts calls whose bars overlap on separate lanes (so concurrent calls show side by side) and
 * returns the lane count. `calls` must be sorted by start.
 * @internal
 */
export function assignLanes(calls: readonly ToolCallView[], start: number, end: number): number {
  const laneEnds: number[] = [];
  for (const call of calls) {
    const { left, width } = barExtent(call, start, end);
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= left + 1e-9);
    if (lane < 0) lane = laneEnds.length;
    laneEnds[lane] = left + width;
    call.lane = lane;
  }
  return Math.max(1, laneEnds.length);
}
