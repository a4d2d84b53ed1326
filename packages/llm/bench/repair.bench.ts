// Throughput of the conservative object ladder next to JSON.parse.
// Run from packages/llm: npx vitest bench --run bench/repair.bench.ts
// MB/s = hz * size / 1e6 (sizes are printed in the task names).
import { bench, describe } from 'vitest';
import { parseWithSchema } from '../src/answer/parse-with-schema.js';
import { parseLenientJson } from '../src/repair/parse-lenient-json.js';
import { recoverRelaxedObject } from '../src/repair/recover-relaxed-object.js';

/** One record as the malformed text small models write, and the same record as valid JSON. */
function record(index: number): { malformed: string; valid: string } {
  const value = {
    id: index,
    name: `item ${index}`,
    tags: ['alpha', 'beta'],
    nested: { flag: true, score: 1.5, note: 'a "quoted" word, then: a colon' },
  };
  const malformed =
    `{id: ${index}, name: <|"|>item ${index}<|"|>, tags: ["alpha", "beta",], ` +
    `nested: {flag: true, score: 1.5, note: "a \\"quoted\\" word, then: a colon",},}`;
  return { malformed, valid: JSON.stringify(value) };
}

/** `{items: [...]}` of about `size` characters, malformed and valid. */
function inputsOfSize(size: number): { malformed: string; valid: string } {
  const malformed: string[] = [];
  const valid: string[] = [];
  let length = 0;
  for (let index = 0; length < size; index++) {
    const next = record(index);
    malformed.push(next.malformed);
    valid.push(next.valid);
    length += next.malformed.length + 1;
  }
  return { malformed: `{items: [${malformed.join(',')}],}`, valid: `{"items":[${valid.join(',')}]}` };
}

const sizes = [
  ['1 KB', 1_000],
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
] as const;

for (const [label, size] of sizes) {
  const { malformed, valid } = inputsOfSize(size);
  if (recoverRelaxedObject(malformed) === undefined) throw new Error('benchmark input does not recover');
  describe(`${label} (malformed ${malformed.length} chars, valid ${valid.length} chars)`, () => {
    bench('JSON.parse (valid)', () => {
      JSON.parse(valid);
    });
    bench('recoverRelaxedObject (malformed)', () => {
      recoverRelaxedObject(malformed);
    });
    bench('recoverRelaxedObject (valid)', () => {
      recoverRelaxedObject(valid);
    });
    bench('parseLenientJson (malformed)', () => {
      parseLenientJson(malformed);
    });
  });
}

const pathological = [
  ['{"a": repeated', '{"a":'.repeat(20_000)],
  ['unclosed quotes', `{"a": "${'x'.repeat(100_000)}`],
  ['{ repeated', '{'.repeat(100_000)],
  ["'a repeated", `{${"'a".repeat(50_000)}`],
  ['} repeated', '}'.repeat(100_000)],
] as const;

describe('pathological 100 KB', () => {
  for (const [label, input] of pathological) {
    bench(`recoverRelaxedObject ${label}`, () => {
      recoverRelaxedObject(input);
    });
  }
});

// Adversarial 1 MB inputs for the schema-guided recovery of final answers: each must finish well
// under a second (one pass per candidate, a bounded number of candidates). The time per input is
// printed once when the file loads.
const answerSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    age: { type: 'integer' },
  },
  required: ['name', 'age'],
} as const;
const MB = 1_000_000;
const adversarialAnswers: ReadonlyArray<readonly [string, string]> = [
  ['{"a": repeated', repeatTo('{"a":', MB)],
  ['" repeated', repeatTo('"', MB)],
  ["' repeated inside an object", `{name: ${repeatTo("'", MB - 7)}`],
  ['```json fences repeated', repeatTo('```json\n', MB)],
  ['[ repeated', repeatTo('[', MB)],
  ['JSON-looking prose', repeatTo('{"name": "x"} ', MB)],
  ['unquoted value with commas', `{name: ${repeatTo('a, "b, c', MB - 7)}`],
  ['quote then spaces repeated', `{"name": "${repeatTo(`"${' '.repeat(200)}`, MB - 12)}`],
  ['/* repeated', `{"name": ${repeatTo('/*', MB - 10)}`],
  ['unclosed string in a fence', `\`\`\`json\n{"name": "${repeatTo('abc ', MB - 20)}`],
  ['backtick strings repeated', `{"name": ${repeatTo('`a`, ', MB - 10)}`],
  ['triple quotes repeated', `{"name": ${repeatTo('"""', MB - 10)}`],
  ['value fences repeated', `{"name": ${repeatTo('```\n', MB - 10)}`],
  ['quote, comma, quote repeated', `{"name": "${repeatTo('", "', MB - 12)}`],
  ['unquoted lines, brace at the end', `{name: ${repeatTo('word\n', MB - 10)}}`],
];

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

const timings: string[] = ['parseWithSchema, adversarial 1 MB inputs (ms):'];
for (const [name, text] of adversarialAnswers) {
  const start = performance.now();
  parseWithSchema(text, answerSchema);
  timings.push(`  ${name.padEnd(32)} ${(performance.now() - start).toFixed(1)}`);
}
console.info(timings.join('\n'));

describe('parseWithSchema: adversarial 1 MB', () => {
  for (const [name, text] of adversarialAnswers) {
    bench(
      name,
      () => {
        parseWithSchema(text, answerSchema);
      },
      { time: 200, iterations: 3, warmupIterations: 1 },
    );
  }
});
