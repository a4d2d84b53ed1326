// Adversarial inputs of 1 MB through every text-facing function: each must finish in well under a
// second (linear time). Timings are printed here, never asserted in tests.
// Run: node --expose-gc bench/pathological-1mb.mjs   (after pnpm build; the heap is collected before each timing)
import {
  createPformatRegistry,
  createStreamScrubber,
  parseCodeCallBody,
  parseLenientJson,
  parsePformatBody,
  parseToolCalls,
  parseToolResultsEnvelope,
  recoverRelaxedObject,
  recoverToolArguments,
  resolveToolName,
} from '@tiny/llm';

const SIZE = 1_000_000;
const repeatTo = (unit) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const tools = [
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
    format: { type: 'ptype', parameters: ['query', 'limit'] },
  },
  {
    name: 'weather',
    description: 'Weather.',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    format: { type: 'xml' },
  },
  { name: 'lookup', description: 'Lookup.', parameters: { type: 'object', properties: { id: { type: 'integer' } } } },
];
const inputs = [
  ['<tool_call> repeated', repeatTo('<tool_call>')],
  ['{"a": repeated', repeatTo('{"a":')],
  ['unclosed quote', `{"a": "${repeatTo('x')}`],
  ['[ repeated', repeatTo('[')],
  ['``` fences', repeatTo('```\n')],
  ['```tool_call unclosed', `\`\`\`tool_call\n${repeatTo('{"name":')}`],
  ['<invoke name=" repeated', repeatTo('<invoke name="')],
  ['<|channel|> repeated', repeatTo('<|channel|>commentary to=functions.x ')],
  ['[TOOL_CALLS]x[ARGS]{ repeated', repeatTo('[TOOL_CALLS]x[ARGS]{')],
  ['<｜tool▁call▁begin｜> repeated', repeatTo('<｜tool▁call▁begin｜>')],
  ['<|START_ACTION|> repeated', repeatTo('<|START_ACTION|>')],
  ['search( repeated', repeatTo('search(')],
  ['<weather><city> repeated', repeatTo('<weather><city>')],
  ['bare keys {a: repeated', repeatTo('{a: ')],
  ['trailing commas', `{${repeatTo('"k": [1,],')}}`],
];
const registry = createPformatRegistry(tools);
const functions = [
  ['parseToolCalls', (text) => parseToolCalls(text, { tools })],
  [
    'stream scrubber (64-char fragments)',
    (text) => {
      const scrubber = createStreamScrubber({ tools });
      for (let at = 0; at < text.length; at += 64) scrubber.feed(text.slice(at, at + 64));
      scrubber.flush();
    },
  ],
  ['recoverRelaxedObject', recoverRelaxedObject],
  ['recoverToolArguments', recoverToolArguments],
  ['parseLenientJson', parseLenientJson],
  ['parsePformatBody', (text) => parsePformatBody(text, registry)],
  ['parseCodeCallBody', (text) => parseCodeCallBody(text, registry)],
  ['parseToolResultsEnvelope', parseToolResultsEnvelope],
  ['resolveToolName', (text) => resolveToolName(text, ['search', 'weather', 'lookup'])],
];
let worst = { ms: 0, label: '' };
console.log(`1 MB adversarial inputs: ${inputs.length} inputs x ${functions.length} functions`);
for (const [fn, run] of functions) {
  let slowest = { ms: 0, input: '' };
  for (const [name, text] of inputs) {
    globalThis.gc?.();
    const started = performance.now();
    run(text);
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { ms, input: name };
  }
  console.log(`${fn.padEnd(36)} slowest ${slowest.ms.toFixed(0).padStart(5)} ms (${slowest.input})`);
  if (slowest.ms > worst.ms) worst = { ms: slowest.ms, label: `${fn} on ${slowest.input}` };
}
console.log(`worst case: ${worst.ms.toFixed(0)} ms (${worst.label}); target: under 1,000 ms`);
