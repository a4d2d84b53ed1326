/**
 * Levenshtein distance between `a` and `b` when it is at most `max`, else `max + 1`. Only a band of
 * width `2 * max + 1` is computed and the scan stops as soon as every cell exceeds `max`, so the
 * cost is O(min(|a|, |b|) * max) and names of very different lengths return immediately.
 * @internal
 */
export function boundedLevenshtein(a: string, b: string, max: number): number {
  const over = max + 1;
  if (Math.abs(a.length - b.length) > max) return over;
  const width = b.length;
  let previous = new Uint32Array(width + 1).fill(over);
  let current = new Uint32Array(width + 1).fill(over);
  for (let column = 0; column <= Math.min(width, max); column++) previous[column] = column;
  for (let row = 1; row <= a.length; row++) {
    const low = Math.max(1, row - max);
    const high = Math.min(width, row + max);
    current.fill(over, Math.max(0, low - 1), Math.min(width, high + 1) + 1);
    if (low === 1) current[0] = row <= max ? row : over;
    let rowMinimum = low === 1 ? (current[0] ?? over) : over;
    const code = a.charCodeAt(row - 1);
    for (let column = low; column <= high; column++) {
      const substitution = (previous[column - 1] ?? over) + (code === b.charCodeAt(column - 1) ? 0 : 1);
      const deletion = (previous[column] ?? over) + 1;
      const insertion = (current[column - 1] ?? over) + 1;
      const cell = Math.min(substitution, deletion, insertion, over);
      current[column] = cell;
      if (cell < rowMinimum) rowMinimum = cell;
    }
    if (rowMinimum > max) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[width] ?? over, over);
}
