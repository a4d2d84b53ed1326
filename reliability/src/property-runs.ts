/**
 * The default run count of a property in this suite, scaled by `TINY_PROPERTY_SCALE` (a positive
 * number, 1 when unset; at least one run). CI's Node 24 lane sets 0.25: lane 1 has already run every
 * property at its full count, and the second lane is there for what the runtime changes. A test's
 * own variable (`FUZZ_RUNS`, `LOOP_RUNS`, ...) still sets its count exactly, unscaled.
 *
 * The suites about the runtime itself keep their counts: the soak (heap and timers), SIGKILL crash
 * and resume, code-mode's hostile programs (sandbox CPU and wall limits), cancellation and deadlines.
 */
export function propertyRuns(count: number): number {
  const scale = Number(process.env.TINY_PROPERTY_SCALE ?? 1);
  if (!(scale > 0))
    throw new Error(`TINY_PROPERTY_SCALE must be a positive number, got ${process.env.TINY_PROPERTY_SCALE}`);
  return Math.max(1, Math.ceil(count * scale));
}
