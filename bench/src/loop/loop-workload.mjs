// Workload 1: agent-loop overhead. Every system runs the same script (T turns of K calls of a
// trivial `add`, then a final answer) in this process, after warm-up runs; the framework's
// overhead is the run's total time minus the time spent inside the model and tool bodies; the
// all-in figure is the run's total time (model and tool bodies included), per tool call.
// At each T the systems are sampled in rotation (cheap ones several times a round), so load that
// comes and goes on a shared machine falls on all of them alike.
import { nowUs, sampleInRotation, scale, summarize } from '../stats.mjs';

async function sampleOverhead(system, turns, callsPerTurn, totals) {
  const run = system.create(turns, callsPerTurn);
  const started = nowUs();
  const outcome = await run();
  const totalUs = nowUs() - started;
  if (outcome.toolCalls !== turns * callsPerTurn) {
    throw new Error(`${system.id}: expected ${turns * callsPerTurn} tool calls, got ${outcome.toolCalls}`);
  }
  totals?.push(totalUs);
  return totalUs - outcome.ownUs;
}

/**
 * Per-call and per-turn overhead of every system at each of `turnCounts` (K = `callsPerTurn`),
 * medians with min/max. `plan(turns)` gives `{ warmups, rounds, budgetMs, minRounds }` per T.
 */
export async function runLoopOverhead(systems, { turnCounts, callsPerTurn, plan }) {
  const rows = [];
  for (const turns of turnCounts) {
    const settings = plan(turns);
    const costs = [];
    for (const system of systems) {
      let last = 0;
      for (let i = 0; i < settings.warmups; i++) last = await sampleOverhead(system, turns, callsPerTurn);
      costs.push(Math.max(last, 1));
    }
    // Systems much cheaper than the slowest get up to 10 samples per round.
    const slowest = Math.max(...costs);
    const perRound = costs.map((cost) => Math.min(10, Math.max(1, Math.round(slowest / cost / 4))));
    globalThis.gc?.();
    const totals = systems.map(() => []);
    const stats = await sampleInRotation(
      systems.map((system, index) => () => sampleOverhead(system, turns, callsPerTurn, totals[index])),
      { ...settings, perRound },
    );
    systems.forEach((system, index) => {
      const totalUs = stats[index];
      rows.push({
        id: system.id,
        label: system.label,
        ours: system.ours === true,
        floor: system.floor === true,
        turns,
        callsPerTurn,
        overheadUs: totalUs,
        perCallUs: scale(totalUs, (value) => value / (turns * callsPerTurn)),
        perTurnUs: scale(totalUs, (value) => value / turns),
        allInPerCallUs: scale(summarize(totals[index]), (value) => value / (turns * callsPerTurn)),
      });
    });
  }
  return rows;
}
