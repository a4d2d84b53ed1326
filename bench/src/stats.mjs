// Timing helpers shared by every workload: hrtime in microseconds, medians with min/max, and
// sampling of several systems in rotation.

/** Microseconds since an arbitrary origin. */
export const nowUs = () => Number(process.hrtime.bigint()) / 1000;

/** Median, min and max of a list of numbers. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples: sorted.length };
}

/** Applies `map` to median, min and max (for example to turn a total into a per-call figure). */
export function scale(stats, map) {
  return { ...stats, median: map(stats.median), min: map(stats.min), max: map(stats.max) };
}

/**
 * Samples several systems in rotation, so load that comes and goes on a shared machine falls on
 * all of them alike. Each `sampler` returns one figure (or a promise of one); `perRound[i]` (default
 * 1) is how many samples system `i` takes per round, so cheap systems get more samples. Stops
 * after `rounds` rounds, or once `budgetMs` has passed and `minRounds` are done. Each summary also
 * carries its raw samples as `values` (not serialised), in round order, for {@link pairedRatio}.
 */
export async function sampleInRotation(
  samplers,
  { rounds, budgetMs = Number.POSITIVE_INFINITY, minRounds = 3, perRound = [] },
) {
  const values = samplers.map(() => []);
  const started = Date.now();
  for (let round = 0; round < rounds; round++) {
    for (let index = 0; index < samplers.length; index++) {
      for (let k = 0; k < (perRound[index] ?? 1); k++) values[index].push(await samplers[index]());
    }
    if (round + 1 >= minRounds && Date.now() - started > budgetMs) break;
  }
  return values.map((list) => Object.defineProperty(summarize(list), 'values', { value: list }));
}

/**
 * The ratio of two systems sampled in the same rotation (one sample each per round), round by
 * round: a machine whose speed drifts from one round to the next moves both figures of a round
 * together, so the median of these ratios is steadier than the ratio of the two medians.
 */
export function pairedRatio(a, b) {
  const rounds = Math.min(a.values.length, b.values.length);
  return summarize(Array.from({ length: rounds }, (_, round) => a.values[round] / b.values[round]));
}
