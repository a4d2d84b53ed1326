import { parseWithSchema } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS } from './arbitraries.js';

/**
 * Properties of parseWithSchema's final-answer recovery (issue 33): content written with another
 * string delimiter comes back as written, terminators inside it are content, the type the model
 * wrote is never changed by default, and valid JSON is returned as it is. Sized by FUZZ_RUNS.
 */
const runs = { numRuns: Math.max(50, Math.ceil(FUZZ_RUNS / 4)) };
const codeSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, type: { type: 'string' } },
  required: ['code', 'type'],
} as const;

/** Characters that make code look like JSON and markup: brackets, quotes, commas, colons, tags. */
const codeChar = fc.constantFrom(
  ...'abcxyz019 _-=+*/\\(){}[]<>:;,."\'!?#$%&|~^@'.split(''),
  '</think>',
  '}}]]',
  '", "type": "x"',
  '<tool_call>',
);
const codeLine = fc.array(codeChar, { maxLength: 30 }).map((parts) => parts.join('').trimEnd());

describe(`parseWithSchema recovery properties (${runs.numRuns} cases each)`, () => {
  it('a fenced value returns its lines, dedented, whatever brackets and quotes they hold', () => {
    fc.assert(
      fc.property(
        fc.array(codeLine, { minLength: 1, maxLength: 6 }).filter((lines) => lines.some((line) => line.trim() !== '')),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('', 'python', 'ts main.ts'),
        fc.boolean(),
        (lines, indent, info, prose) => {
          // Lines must not themselves look like a closing fence.
          fc.pre(lines.every((line) => !line.trimStart().startsWith('```')));
          const body = lines.map((line) => (line === '' ? '' : ' '.repeat(indent) + line)).join('\n');
          const object = `{\n  "code": \`\`\`${info}\n${body}\n\`\`\`,\n  "type": "code"\n}`;
          const text = prose ? `Here you go:\n\n${object}\n\nHope it helps.` : object;
          const answer = parseWithSchema(text, codeSchema);
          const expected = lines.map((line) => line.trimEnd());
          // Dedent: the common indentation of non-blank lines goes.
          const common = Math.min(
            ...expected.filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length),
          );
          const dedented = expected.map((line) => (line.trim() === '' ? '' : line.slice(common)));
          while (dedented.length > 1 && dedented[0] === '') dedented.shift();
          while (dedented.length > 1 && dedented[dedented.length - 1] === '') dedented.pop();
          expect(answer?.value).toEqual({ code: dedented.join('\n'), type: 'code' });
          expect(answer?.repairs).toContain('fenced_string at /code');
        },
      ),
      runs,
    );
  });

  it('a backtick or triple-quoted one-line value returns exactly what is between the delimiters', () => {
    fc.assert(
      fc.property(codeLine, fc.constantFrom('`', '"""'), (line, delimiter) => {
        fc.pre(line.trim() !== '' && !line.includes('`') && !line.includes('"""') && !line.endsWith('"'));
        fc.pre(!line.startsWith('"'));
        const text = `{"code": ${delimiter}${line}${delimiter}, "type": "code"}`;
        expect(parseWithSchema(text, codeSchema)?.value).toEqual({ code: line, type: 'code' });
      }),
      runs,
    );
  });

  it('valid JSON of the right types is returned unchanged with no repairs', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        age: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['name', 'age', 'tags'],
    } as const;
    fc.assert(
      fc.property(fc.string(), fc.integer(), fc.array(fc.string(), { maxLength: 4 }), (name, age, tags) => {
        const value = { name, age, tags };
        expect(parseWithSchema(JSON.stringify(value), schema)).toEqual({ value, repairs: [] });
      }),
      runs,
    );
  });

  it('never changes the type the model wrote unless coerce is lenient', () => {
    const schema = {
      type: 'object',
      properties: {
        label: { type: 'string' },
        count: { type: 'integer' },
        items: { type: 'array', items: { type: 'string' } },
      },
      required: ['label', 'count', 'items'],
    } as const;
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.constantFrom('label', 'count', 'items'),
        fc.boolean(),
        (number, wrong, fenced) => {
          const value: Record<string, unknown> = { label: 'ok', count: 3, items: ['a'] };
          // One field written with another type: a number for the string, its text for the
          // integer, numbers or a lone string for the list of strings.
          if (wrong === 'label') value.label = number;
          if (wrong === 'count') value.count = String(number);
          if (wrong === 'items') value.items = number % 2 === 0 ? [number] : 'a';
          const json = JSON.stringify(value);
          const text = fenced ? `Sure:\n\`\`\`json\n${json}\n\`\`\`` : json;
          expect(parseWithSchema(text, schema)).toBeUndefined();
          const lenient = parseWithSchema(text, schema, { coerce: 'lenient' });
          expect(lenient).toBeDefined();
          expect(lenient?.repairs.some((repair) => /^(coerced_to|wrapped_in_array)/.test(repair))).toBe(true);
        },
      ),
      runs,
    );
  });

  it('reads any unquoted word, Object.prototype member names included, as the string it is', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } as const;
    const word = fc.oneof(
      fc.constantFrom('constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', 'toJSON'),
      fc.stringMatching(/^[a-z_$][a-zA-Z0-9_$]{0,12}$/),
    );
    fc.assert(
      fc.property(word, word, (first, second) => {
        const keywords = ['true', 'false', 'null', 'True', 'False', 'None'];
        fc.pre(!keywords.includes(first) && !keywords.includes(second));
        const answer = parseWithSchema(`{a: ${first}, b: ${second}}`, schema);
        expect(answer?.value).toEqual({ a: first, b: second });
        expect(Object.getPrototypeOf(answer?.value)).toBe(Object.prototype);
      }),
      runs,
    );
  });

  it('never lets a key written twice replace the first value silently', () => {
    const schema = { type: 'object', properties: { age: { type: 'integer' }, note: { type: 'string' } } } as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.boolean(),
        (age, other, prose) => {
          const text = prose
            ? `{"age": ${age}, "note": see the example {"age": ${other}}`
            : `{age: ${age}, note: 'x', age: ${other}}`;
          const answer = parseWithSchema(text, schema);
          if (answer === undefined) return;
          const read = answer.value as { age: number };
          expect(read.age === age || answer.repairs.includes('dropped_duplicate_key at /age')).toBe(true);
          expect(read.age).toBe(age);
        },
      ),
      runs,
    );
  });

  it('takes a complete valid answer written first over an example quoted after it', () => {
    const schema = {
      type: 'object',
      properties: { age: { type: 'integer' }, name: { type: 'string' } },
      required: ['age'],
    } as const;
    const entry = fc.record({ age: fc.integer({ min: 0, max: 10_000 }), name: fc.string({ maxLength: 12 }) });
    fc.assert(
      fc.property(
        entry,
        entry,
        fc.constantFrom('fence', 'inline'),
        fc.constantFrom('', 'Answer: ', 'Here you go.\n'),
        (answer, example, quote, lead) => {
          const quoted =
            quote === 'fence' ? `\n\`\`\`json\n${JSON.stringify(example)}\n\`\`\`` : ` \`${JSON.stringify(example)}\``;
          const text = `${lead}${JSON.stringify(answer)}\n\nThe input example was:${quoted}`;
          expect(parseWithSchema(text, schema)?.value).toEqual(answer);
        },
      ),
      runs,
    );
  });

  it('refuses any answer holding a number that overflows to Infinity', () => {
    const schema = { type: 'object', properties: { n: { type: 'number' }, m: { type: 'integer' } } } as const;
    fc.assert(
      fc.property(
        fc.constantFrom('n', 'm'),
        fc.integer({ min: 309, max: 5000 }),
        fc.constantFrom('', '-'),
        fc.constantFrom('', ',', ' '),
        (key, exponent, sign, tail) => {
          expect(parseWithSchema(`{"${key}": ${sign}1e${exponent}${tail}}`, schema)).toBeUndefined();
        },
      ),
      runs,
    );
  });
});
