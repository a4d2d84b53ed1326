// Workload 1b: peak RSS and heap of one long run per system, each in a fresh child process so the
// figures compare. Two children run at a time (the benchmark targets 2 cores); a child that does
// not finish within the cap is stopped, and its last progress line gives lower bounds at the turn
// it reached.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const childPath = fileURLToPath(new URL('./memory-child.mjs', import.meta.url));

function runChild(id, turns, capMs, callsPerTurn) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', childPath, id, String(turns), String(callsPerTurn)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let capped = false;
    const timer = setTimeout(() => {
      capped = true;
      child.kill('SIGKILL');
    }, capMs);
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const lines = stderr.split('\n');
      const last = (prefix) => {
        const line = lines.findLast((candidate) => candidate.startsWith(`${prefix} `));
        return line === undefined ? undefined : JSON.parse(line.slice(prefix.length + 1));
      };
      const final = stdout.trim().split('\n').pop();
      if (code === 0 && final) {
        resolve({ id, status: 'finished', ...JSON.parse(final) });
        return;
      }
      const baseline = last('baseline');
      const progress = last('progress');
      const outOfMemory = /heap out of memory|Allocation failed/.test(stderr);
      resolve({
        id,
        turns,
        status: capped ? 'capped' : outOfMemory ? 'out-of-memory' : `failed (${signal ?? code})`,
        capMs,
        reachedTurn: progress?.turn,
        elapsedMs: progress?.elapsedMs,
        rssBeforeMiB: baseline?.rssMiB,
        peakRssMiB: progress?.peakRssMiB,
        peakRssGrowthMiB: progress && baseline ? progress.peakRssMiB - baseline.rssMiB : undefined,
        heapBeforeMiB: baseline?.heapUsedMiB,
        heapAfterMiB: progress?.heapUsedMiB,
        error: capped || outOfMemory ? undefined : stderr.slice(-2000),
      });
    });
  });
}

/** Runs every system's long run, `concurrency` at a time, longest-expected first. */
export async function runMemory(systems, { turns, capMs, callsPerTurn = 4, concurrency = 2 }) {
  const queue = [...systems];
  const results = new Map();
  const lane = async () => {
    for (let system = queue.shift(); system !== undefined; system = queue.shift()) {
      results.set(system.id, await runChild(system.id, turns, capMs, callsPerTurn));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return systems.map((system) => ({
    label: system.label,
    ours: system.ours === true,
    floor: system.floor === true,
    ...results.get(system.id),
  }));
}
