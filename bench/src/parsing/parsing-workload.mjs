// Workload 3: tool-call parsing and repair. Ours (`parseToolCalls`, `recoverRelaxedObject`) against
// `JSON.parse` on equivalent valid input (the physical limit) and against `jsonrepair` (+ the
// `JSON.parse` its output still needs), at 1 KB, 100 KB and 1 MB. Figures are MB/s of each input;
// the systems of one input are sampled in rotation.
import { parseToolCalls, recoverRelaxedObject } from '@tiny/llm';
import { jsonrepair } from 'jsonrepair';
import { nowUs, pairedRatio, sampleInRotation, summarize } from '../stats.mjs';
import { addToolSchema, malformedObject, toolCallText } from './parsing-inputs.mjs';

const tools = [addToolSchema];

/**
 * A sampler of MB/s for `operation` on `input`, timing batches sized to take ~5 ms; or, when one
 * run is slower than `slowMs` (jsonrepair is superlinear on trailing commas: seconds per MB), that
 * single run's figure. The operation first runs for at least `warmMs` and the batch is sized from
 * a run after that: sized from the first (cold) run, a 1 KB input got batches of one, timed while
 * the code was still interpreted.
 */
function createSampler(operation, input, slowMs, warmMs) {
  let started = nowUs();
  if (!operation(input)) throw new Error('operation failed on its input');
  const firstUs = nowUs() - started;
  const mb = input.length / 1e6;
  if (firstUs > slowMs * 1000) return { single: summarize([mb / (firstUs / 1e6)]) };
  for (const warmStarted = nowUs(); nowUs() - warmStarted < warmMs * 1000; ) operation(input);
  started = nowUs();
  operation(input);
  const warmUs = Math.max(nowUs() - started, 0.5);
  const batch = Math.max(1, Math.ceil(5000 / warmUs));
  for (let i = 0; i < 3; i++) for (let j = 0; j < batch; j++) operation(input);
  return {
    sample() {
      started = nowUs();
      for (let j = 0; j < batch; j++) operation(input);
      return (mb * batch) / ((nowUs() - started) / 1e6);
    },
  };
}

async function measureGroup(workload, bytes, systems, settings) {
  const samplers = systems.map((system) =>
    createSampler(system.operation, system.input, settings.slowMs, settings.warmMs),
  );
  const rotating = samplers.filter((sampler) => sampler.sample !== undefined);
  globalThis.gc?.();
  const stats = await sampleInRotation(
    rotating.map((sampler) => sampler.sample),
    settings,
  );
  const jsonParse = stats[rotating.indexOf(samplers[systems.findIndex((system) => system.id === 'json-parse')])];
  return systems.map((system, index) => {
    const sampler = samplers[index];
    const mbPerSecond = sampler.single ? { ...sampler.single, singleRun: true } : stats[rotating.indexOf(sampler)];
    return {
      workload,
      bytes,
      id: system.id,
      label: system.label,
      ours: system.ours === true,
      inputBytes: system.input.length,
      mbPerSecond,
      // Speed ÷ JSON.parse's, round by round (see `pairedRatio`); the targets read this.
      ...(system.ours && !sampler.single && jsonParse !== undefined
        ? { vsJsonParse: pairedRatio(mbPerSecond, jsonParse) }
        : {}),
    };
  });
}

const jsonrepairParse = (text) => JSON.parse(jsonrepair(text));

/** Runs the parsing workload; `smoke` drops the 1 MB inputs and repeats little. */
export async function runParsing({ smoke }) {
  const sizes = smoke ? [1_000, 100_000] : [1_000, 100_000, 1_000_000];
  const settings = smoke
    ? { rounds: 3, budgetMs: 200, slowMs: 1000, warmMs: 20 }
    : { rounds: 21, budgetMs: 4000, slowMs: 2000, warmMs: 300 };
  const rows = [];
  for (const bytes of sizes) {
    const calls = toolCallText(bytes);
    const parseCalls = (text) => parseToolCalls(text, { tools }).calls.length === calls.calls;
    rows.push(
      ...(await measureGroup(
        'tool-call text',
        bytes,
        [
          {
            id: 'tiny-parse-tool-calls',
            label: 'tiny parseToolCalls',
            ours: true,
            input: calls.text,
            operation: parseCalls,
          },
          { id: 'json-parse', label: 'JSON.parse (same content as JSON)', input: calls.json, operation: JSON.parse },
        ],
        settings,
      )),
    );
    const object = malformedObject(bytes);
    rows.push(
      ...(await measureGroup(
        'malformed object',
        bytes,
        [
          {
            id: 'tiny-recover-relaxed',
            label: 'tiny recoverRelaxedObject',
            ours: true,
            input: object.malformed,
            operation: recoverRelaxedObject,
          },
          { id: 'jsonrepair', label: 'jsonrepair + JSON.parse', input: object.malformed, operation: jsonrepairParse },
          { id: 'json-parse', label: 'JSON.parse (valid equivalent)', input: object.valid, operation: JSON.parse },
        ],
        settings,
      )),
    );
    rows.push(
      ...(await measureGroup(
        'valid object',
        bytes,
        [
          {
            id: 'tiny-recover-relaxed',
            label: 'tiny recoverRelaxedObject',
            ours: true,
            input: object.valid,
            operation: recoverRelaxedObject,
          },
          { id: 'jsonrepair', label: 'jsonrepair + JSON.parse', input: object.valid, operation: jsonrepairParse },
          { id: 'json-parse', label: 'JSON.parse', input: object.valid, operation: JSON.parse },
        ],
        settings,
      )),
    );
  }
  return { rows };
}
