// Cold start: time from `node` start to the first completed tool call of a one-tool agent, the
// imports included, for tiny and the AI SDK. Each sample is a fresh child process (a warm disk
// cache after the first); the children alternate so load falls on both alike.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from '../stats.mjs';

const childPath = fileURLToPath(new URL('./cold-start.mjs', import.meta.url));
const systems = [
  { id: 'tiny', label: 'tiny (@tiny/harness + @tiny/tools + typebox)', ours: true },
  // The same agent with a zod schema (tiny takes Standard Schema): the schema library's own import
  // (typebox 1.x loads about 700 modules) is then the same on both sides.
  { id: 'tiny-zod', label: 'tiny (@tiny/harness + @tiny/tools + zod)', ours: true },
  { id: 'ai-sdk', label: 'AI SDK 6 (ai + zod)' },
];

/** Median milliseconds from process start to the first completed tool call, per system. */
export function runColdStart({ samples }) {
  const values = systems.map(() => []);
  for (let round = 0; round < samples + 1; round++) {
    systems.forEach((system, index) => {
      const out = execFileSync(process.execPath, [childPath, system.id], { encoding: 'utf8' });
      // The first round only warms the disk cache.
      if (round > 0) values[index].push(JSON.parse(out.trim().split('\n').pop()).firstCallMs);
    });
  }
  return systems.map((system, index) => ({ ...system, firstCallMs: summarize(values[index]) }));
}
