import { InvalidInputError, type JsonSchema, SchemaCompileFailure } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { parseWithSchema } from './parse-with-schema.js';

const person: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    status: { type: 'string', enum: ['active', 'retired'] },
  },
  required: ['name', 'age'],
};
const closedPerson: JsonSchema = { ...person, additionalProperties: false };

describe('parseWithSchema', () => {
  it('returns valid JSON unchanged with no repairs', () => {
    expect(parseWithSchema('{"name":"Ada","age":36}', person)).toEqual({
      value: { name: 'Ada', age: 36 },
      repairs: [],
    });
  });

  it('accepts single-quoted and unquoted strings only where the schema says string', () => {
    expect(parseWithSchema("{name: 'Ada Lovelace', age: 36, status: retired}", person)).toEqual({
      value: { name: 'Ada Lovelace', age: 36, status: 'retired' },
      repairs: [
        'unquoted_key at /name',
        'single_quoted_string at /name',
        'unquoted_key at /age',
        'unquoted_key at /status',
        'unquoted_string at /status',
      ],
    });
    // `age` is an integer: an unquoted word there is not read as a string.
    expect(parseWithSchema('{name: Ada, age: thirty-six}', person)).toBeUndefined();
    expect(parseWithSchema("{name: 'Ada', age: '36'}", person)).toBeUndefined();
  });

  // Cross-type coercion is off by default: the model wrote another type, and asking again is the
  // honest repair. Vercel AI's Output.object refuses a value that does not match its zod schema with
  // NoObjectGeneratedError (vercel/ai packages/ai/core/generate-text/output.test.ts), instructor
  // answers a validation error with a retry carrying the error (instructor-ai/instructor
  // docs/concepts/retrying.md); only the enum-case repair, which keeps the meaning, stays.
  it('refuses cross-type values by default and matches enum values case-insensitively', () => {
    const text = '{"name": 1815, "age": "36", "status": "Retired"}';
    expect(parseWithSchema(text, person)).toBeUndefined();
    expect(parseWithSchema('{"name": "Ada", "age": "36"}', person)).toBeUndefined();
    expect(parseWithSchema('{"name": "1815", "age": 36}', person)?.value).toEqual({ name: '1815', age: 36 });
    expect(parseWithSchema('{"name": 1815, "age": 36}', person)).toBeUndefined();
    expect(parseWithSchema('{name: 1815, age: 36}', person)).toBeUndefined();
    expect(parseWithSchema('{"name": "Ada", "age": 36, "status": "Retired"}', person)).toEqual({
      value: { name: 'Ada', age: 36, status: 'retired' },
      repairs: ['matched_enum_case at /status'],
    });
    expect(parseWithSchema('12,111', { type: 'integer' })).toBeUndefined();
    expect(parseWithSchema('[1, 2, 3]', { type: 'array', items: { type: 'string' } })).toBeUndefined();
    expect(parseWithSchema('{"a": 1}', { type: 'string' })).toBeUndefined();
    expect(parseWithSchema('```json\n{"a": 1}\n```', { type: 'string' })).toBeUndefined();
    expect(
      parseWithSchema('{"note": `{"a": 1}`}', { type: 'object', properties: { note: { type: 'string' } } })?.value,
    ).toEqual({
      note: '{"a": 1}',
    });
    expect(parseWithSchema('123', { type: 'string' })).toBeUndefined();
    expect(parseWithSchema('true', { type: 'string' })).toBeUndefined();
    const list: JsonSchema = { type: 'array', items: { type: 'object', properties: { a: { type: 'integer' } } } };
    expect(parseWithSchema('{"a": 1}', list)).toBeUndefined();
    // Text with more than a number on the line is a string.
    expect(parseWithSchema('{name: 221B Baker Street, age: 36}', person)?.value).toEqual({
      name: '221B Baker Street',
      age: 36,
    });
  });

  it("coerces scalars by the schema with coerce: 'lenient'", () => {
    const lenient = { coerce: 'lenient' } as const;
    const answer = parseWithSchema('{"name": 1815, "age": "36", "status": "Retired"}', person, lenient);
    expect(answer?.value).toEqual({ name: '1815', age: 36, status: 'retired' });
    expect(answer?.repairs).toEqual([
      'coerced_to_string at /name',
      'coerced_to_number at /age',
      'matched_enum_case at /status',
    ]);
    expect(parseWithSchema('{"name": "Ada", "age": "36.5"}', person, lenient)).toBeUndefined();
    expect(parseWithSchema('{"name": "Ada", "age": 36, "status": "retiring"}', person, lenient)).toBeUndefined();
    expect(parseWithSchema('12,111', { type: 'integer' }, lenient)).toEqual({
      value: 12111,
      repairs: ['removed_digit_grouping at /'],
    });
    expect(parseWithSchema('{"a": 1}', { type: 'string' }, lenient)?.value).toBe('{"a": 1}');
    expect(() => parseWithSchema('1', { type: 'integer' }, { coerce: 'loose' as never })).toThrow(InvalidInputError);
  });

  it('drops undeclared keys only when additionalProperties is false', () => {
    const text = '{"name": "Ada", "age": 36, "explanation": "I looked her up."}';
    expect(parseWithSchema(text, person)?.value).toEqual({ name: 'Ada', age: 36, explanation: 'I looked her up.' });
    expect(parseWithSchema(text, closedPerson)).toEqual({
      value: { name: 'Ada', age: 36 },
      repairs: ['dropped_undeclared_key at /explanation'],
    });
  });

  it('chooses the first candidate that validates, in fences and in prose', () => {
    const text = 'For example {"name": "Bob"} would be wrong. The answer:\n```json\n{"name": "Ada", "age": 36}\n```';
    const answer = parseWithSchema(text, person);
    expect(answer?.value).toEqual({ name: 'Ada', age: 36 });
    expect(answer?.repairs).toContain('code_fence');
    const spans = parseWithSchema('Not {"name": "Bob"} but {"name": "Ada", "age": 36}.', person);
    expect(spans?.value).toEqual({ name: 'Ada', age: 36 });
    expect(spans?.repairs).toEqual(['extracted_from_prose', 'skipped_invalid_candidates (1)']);
  });

  it('closes an answer cut at the end, and refuses one that lost a required field', () => {
    expect(parseWithSchema('{"age": 36, "name": "Ada Love', person)).toEqual({
      value: { age: 36, name: 'Ada Love' },
      repairs: ['closed_truncated'],
    });
    expect(parseWithSchema('{"name": "Ada", "a', person)).toBeUndefined();
  });

  it('keeps inner quotes that do not end a value and backslashes that are not JSON escapes', () => {
    const schema: JsonSchema = { type: 'object', properties: { quote: { type: 'string' }, path: { type: 'string' } } };
    const answer = parseWithSchema(String.raw`{"quote": "She said "no" twice", 'path': 'C:\Users\ada'}`, schema);
    expect(answer?.value).toEqual({ quote: 'She said "no" twice', path: String.raw`C:\Users\ada` });
  });

  it('reads a bare string answer, and a string enum when the text is the member or names it once without a hedge', () => {
    expect(parseWithSchema('Paris', { type: 'string' })).toEqual({ value: 'Paris', repairs: ['unquoted_string'] });
    const mood: JsonSchema = { type: 'string', enum: ['POSITIVE', 'NEGATIVE'] };
    expect(parseWithSchema('Positive.', mood)).toEqual({
      value: 'POSITIVE',
      repairs: ['unquoted_string', 'enum_from_text'],
    });
    expect(parseWithSchema('```\nnegative\n```', mood)?.value).toBe('NEGATIVE');
    // Named once in a sentence that does not hedge, the member is the answer (listed).
    expect(parseWithSchema('The review is clearly positive.', mood)).toEqual({
      value: 'POSITIVE',
      repairs: ['unquoted_string', 'enum_from_text'],
    });
    // A sentence that negates, refuses, doubts or names two members is refused: a retry asks again.
    expect(parseWithSchema('It is definitely not positive.', mood)).toBeUndefined();
    expect(parseWithSchema("It isn't positive.", mood)).toBeUndefined();
    expect(parseWithSchema('Maybe positive.', mood)).toBeUndefined();
    expect(parseWithSchema('Positive rather than negative.', mood)).toBeUndefined();
    expect(parseWithSchema('Positive, negative: hard to say.', mood)).toBeUndefined();
    expect(parseWithSchema('I cannot tell whether the review is positive.', mood)).toBeUndefined();
    expect(parseWithSchema('No idea.', mood)).toBeUndefined();
    // A string const is a one-member enum; a union of consts lists its members.
    expect(parseWithSchema('"two".', { const: 'TWO' })?.value).toBe('TWO');
    expect(parseWithSchema('The answer is "two".', { const: 'TWO' })?.value).toBe('TWO');
    expect(parseWithSchema('I refuse to say two.', { const: 'TWO' })).toBeUndefined();
    // The quoted member wins over a word that only spells another member in passing.
    expect(parseWithSchema('The answer "TWO" is the correct one', { enum: ['one', 'two'] })?.value).toBe('two');
    const choice: JsonSchema = { anyOf: [{ const: 'TWO' }, { const: 'THREE' }] };
    expect(parseWithSchema('**THREE**', choice)?.value).toBe('THREE');
    expect(parseWithSchema('TWO or THREE', choice)).toBeUndefined();
  });

  it('picks the union member the coerced value validates against, following local refs', () => {
    const schema: JsonSchema = {
      $defs: { Count: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] } },
      anyOf: [{ $ref: '#/$defs/Count' }, { type: 'string', enum: ['none'] }],
    };
    expect(parseWithSchema('{"count": "3"}', schema, { coerce: 'lenient' })?.value).toEqual({ count: 3 });
    expect(parseWithSchema('{"count": "3"}', schema)).toBeUndefined();
    expect(parseWithSchema('{count: 3}', schema)?.value).toEqual({ count: 3 });
    expect(parseWithSchema('"NONE"', schema)?.value).toBe('none');
    expect(parseWithSchema('{"count": "three"}', schema, { coerce: 'lenient' })).toBeUndefined();
  });

  it("wraps one value into a one-item array and unwraps a one-item array only with coerce: 'lenient'", () => {
    const tags: JsonSchema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } };
    expect(parseWithSchema('{"tags": "urgent"}', tags, { coerce: 'lenient' })).toEqual({
      value: { tags: ['urgent'] },
      repairs: ['wrapped_in_array at /tags'],
    });
    const choice: JsonSchema = { type: 'string', enum: ['ONE', 'TWO'] };
    expect(parseWithSchema('["TWO"]', choice, { coerce: 'lenient' })?.value).toBe('TWO');
    expect(parseWithSchema('{"tags": "urgent"}', tags)).toBeUndefined();
    expect(parseWithSchema('["TWO"]', choice)).toBeUndefined();
  });

  it('refuses prose and empty text, and reads deep but bounded nesting', () => {
    expect(parseWithSchema('I cannot help with that.', person)).toBeUndefined();
    expect(parseWithSchema('', { type: 'string' })).toBeUndefined();
    expect(parseWithSchema(`${'['.repeat(500)}1${']'.repeat(500)}`, { type: 'array' })).toEqual({
      value: expect.any(Array),
      repairs: [],
    });
  });

  it('throws SchemaCompileFailure for a schema ajv cannot compile', () => {
    expect(() => parseWithSchema('{}', { type: 'object', properties: { a: { $ref: '#/nowhere' } } })).toThrow(
      SchemaCompileFailure,
    );
  });
});

// Facts from BAML's jsonish tests (BoundaryML/baml engine/baml-lib/jsonish/src/tests/test_code.rs,
// test_class.rs): backtick, triple-quoted and fenced values are strings; a fence's info string is
// discarded and its body dedented; JSON terminators inside a fence are content.
describe('parseWithSchema: alternative string delimiters', () => {
  const code: JsonSchema = {
    type: 'object',
    properties: { type: { type: 'string' }, code: { type: 'string' } },
    required: ['code'],
  };

  it('reads a backtick string, keeping inner backticks that do not end the value', () => {
    expect(parseWithSchema('{"type": "code", "code": `print("Hi")`}', code)).toEqual({
      value: { type: 'code', code: 'print("Hi")' },
      repairs: ['backtick_string at /code'],
    });
    expect(parseWithSchema('{"code": `console.log(`Hi`)`, "type": "code"}', code)?.value).toEqual({
      code: 'console.log(`Hi`)',
      type: 'code',
    });
    expect(parseWithSchema('{"code": `line one\nline two`}', code)?.value).toEqual({ code: 'line one\nline two' });
  });

  it('reads a triple-quoted block: quotes are content, the block is dedented', () => {
    expect(parseWithSchema('{"code": """print("Hi")"""}', code)?.value).toEqual({ code: 'print("Hi")' });
    const block = '{\n  "code": """\n      def main():\n        print("Hi")\n  """,\n  "type": "code",\n}';
    expect(parseWithSchema(block, code)).toEqual({
      value: { code: 'def main():\n  print("Hi")', type: 'code' },
      repairs: ['triple_quoted_string at /code', 'removed_trailing_comma at /'],
    });
    expect(parseWithSchema('{"code": """\n"quoted"\n"""}', code)?.value).toEqual({ code: '"quoted"' });
  });

  it('reads a fenced block as a value: info string dropped, dedented, terminators inside are content', () => {
    const fenced = [
      'Here is the code:',
      '',
      '{',
      '  "code": ```typescript main.ts',
      '    function main() {',
      '      return { a: [1, 2] }; }}}]])',
      '    }',
      '```,',
      '  "type": "code",',
      '}',
      '',
      'It returns an object.',
    ].join('\n');
    expect(parseWithSchema(fenced, code)).toEqual({
      value: { code: 'function main() {\n  return { a: [1, 2] }; }}}]])\n}', type: 'code' },
      repairs: ['extracted_from_prose', 'fenced_string at /code', 'removed_trailing_comma at /'],
    });
    // The same object inside a ```json fence of its own.
    const nested = `\`\`\`json\n{\n  "code": \`\`\`\n  { type: "x", closing: }}}]])) }\n\`\`\`,\n  "type": "code"\n}\n\`\`\``;
    expect(parseWithSchema(nested, code)?.value).toEqual({ code: '{ type: "x", closing: }}}]])) }', type: 'code' });
    // A fence written inside a double-quoted string stays as written.
    expect(parseWithSchema('{"code": "```\\nx = 1\\n```"}', code)?.value).toEqual({ code: '```\nx = 1\n```' });
  });

  it('keeps unescaped inner quotes before a comma when no key follows it', () => {
    const answer = parseWithSchema('{"type": "quote", "code": "She said "hi", then left"}', code);
    expect(answer?.value).toEqual({ type: 'quote', code: 'She said "hi", then left' });
    expect(answer?.repairs).toContain('kept_inner_quote at /code');
    const list: JsonSchema = { type: 'array', items: { type: 'string' } };
    expect(parseWithSchema('["a "b", c", "d"]', list)?.value).toEqual(['a "b", c', 'd']);
  });

  it('closes an answer cut inside a literal, an exponent or a unicode escape', () => {
    const flags: JsonSchema = {
      type: 'object',
      properties: { done: { type: 'boolean' }, score: { type: 'number' }, note: { type: ['string', 'null'] } },
    };
    expect(parseWithSchema('{"score": 2.5, "done": tr', flags)).toEqual({
      value: { score: 2.5, done: true },
      repairs: ['closed_truncated'],
    });
    expect(parseWithSchema('{"done": false, "score": 1.5e-', flags)?.value).toEqual({ done: false, score: 1.5 });
    expect(parseWithSchema('{"done": false, "note": nu', flags)?.value).toEqual({ done: false, note: 'nu' });
    expect(parseWithSchema('{"note": "caf\\u00', flags)?.value).toEqual({ note: 'caf' });
    // Not at the end, a word is not a cut literal.
    expect(parseWithSchema('{"done": tr, "score": 1}', flags)).toBeUndefined();
  });

  it('keeps the trailing spaces of a string cut at the end', () => {
    expect(parseWithSchema('{"type": "code", "code": "x = 1  ', code)).toEqual({
      value: { type: 'code', code: 'x = 1  ' },
      repairs: ['closed_truncated'],
    });
  });

  it('reads unquoted keys and multi-line unquoted values in a prose-wrapped object', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, res: { type: 'array', items: { type: 'string' } } },
    };
    const text =
      'Sure!\n{\n  a: Hi friends!,\n  b: one line\n  and the next,\n  res: [hello,\n   world]\n}\nAnything else?';
    expect(parseWithSchema(text, schema)?.value).toEqual({
      a: 'Hi friends!',
      b: 'one line\n  and the next',
      res: ['hello', 'world'],
    });
  });

  it('closes a recursive value missing its brackets and drops the prose after it', () => {
    const foo: JsonSchema = {
      $defs: {
        Foo: {
          type: 'object',
          properties: { pointer: { anyOf: [{ $ref: '#/$defs/Foo' }, { type: 'null' }] } },
          required: ['pointer'],
        },
      },
      $ref: '#/$defs/Foo',
    };
    const text = 'The answer is\n{\n  "pointer": {\n    pointer: null,\n\nAnything else I can help with?\n';
    const answer = parseWithSchema(text, foo);
    expect(answer?.value).toEqual({ pointer: { pointer: null } });
    expect(answer?.repairs).toContain('dropped_trailing_prose at /pointer');
    // An object that lost a name to the ladder's character dropping keeps it here.
    const named: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(parseWithSchema('{a: Ada\n\nThanks!', named)?.value).toEqual({ a: 'Ada' });
  });
});

// Slips written from the classes json_repair's tests name (mangiucugna/json_repair
// tests/test_parse_object.py, tests/test_parse_array.py); inputs are this project's own.
describe('parseWithSchema: missing and stray punctuation', () => {
  const item: JsonSchema = {
    type: 'object',
    properties: { title: { type: 'string' }, count: { type: 'integer' }, note: { type: 'string' } },
    required: ['title', 'count'],
  };
  const list: JsonSchema = { type: 'array', items: { type: 'integer' } };

  it('inserts a missing comma before a quoted key or list item', () => {
    expect(parseWithSchema('{"title": "Lamp", "count": 2 "note": "spare"}', item)?.value).toEqual({
      title: 'Lamp',
      count: 2,
      note: 'spare',
    });
    expect(parseWithSchema('{"title": "Lamp""count": 2}', item)?.value).toEqual({ title: 'Lamp', count: 2 });
    expect(parseWithSchema('["red" "green" "blue"]', { type: 'array', items: { type: 'string' } })?.value).toEqual([
      'red',
      'green',
      'blue',
    ]);
  });

  it('drops a stray word before a quoted key, and an ellipsis standing for left-out items', () => {
    const answer = parseWithSchema('{"title": "Lamp", NOTE "count": 2}', item);
    expect(answer?.value).toEqual({ title: 'Lamp', count: 2 });
    expect(answer?.repairs).toContain('dropped_stray_text at /');
    expect(parseWithSchema('[1, 2, ..., 5]', list)?.value).toEqual([1, 2, 5]);
    expect(parseWithSchema('[1, 2, …]', list)?.repairs).toContain('dropped_ellipsis at /');
    // An ellipsis inside a string is content.
    expect(parseWithSchema('{"title": "...", "count": 1}', item)?.value).toEqual({ title: '...', count: 1 });
  });

  it('adds a missing opening quote and keeps brackets opened inside an unquoted value', () => {
    expect(parseWithSchema('{"title": Lamp", "count": 2}', item)?.value).toEqual({ title: 'Lamp', count: 2 });
    expect(parseWithSchema('{title: Lamp {spare}, count: 2}', item)?.value).toEqual({
      title: 'Lamp {spare}',
      count: 2,
    });
  });

  it('reads number-like text, comments between items, commas in parentheses and union members by key', () => {
    const note: JsonSchema = { type: 'object', properties: { ratio: { type: 'string' }, n: { type: 'number' } } };
    expect(parseWithSchema('{"ratio": 1/3, "n": 1e }', note)?.value).toEqual({ ratio: '1/3', n: 1 });
    // A number then a comment is still a number: for a string field, refused by the policy.
    expect(parseWithSchema('{"ratio": 1 /* one */, "n": 2}', note)).toBeUndefined();
    expect(parseWithSchema('{"ratio": "1" /* one */, "n": 2}', note)?.value).toEqual({ ratio: '1', n: 2 });
    expect(parseWithSchema('["a", /* note */ "b"]', { type: 'array', items: { type: 'string' } })?.value).toEqual([
      'a',
      'b',
    ]);
    const tasks: JsonSchema = {
      type: 'array',
      items: {
        anyOf: [
          { type: 'object', properties: { kind: { const: 'fn' }, signature: { type: 'string' } } },
          { type: 'object', properties: { kind: { const: 'page' }, route: { type: 'string' } } },
        ],
      },
    };
    expect(
      parseWithSchema('[{kind: fn, signature: f(a: number, b: string): void}, {kind: page, route: /}]', tasks)?.value,
    ).toEqual([
      { kind: 'fn', signature: 'f(a: number, b: string): void' },
      { kind: 'page', route: '/' },
    ]);
  });

  it('fixes mismatched closers, an object closed too early and a fence with no opener', () => {
    const nested: JsonSchema = {
      type: 'object',
      properties: { items: { type: 'array', items: item }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['items'],
    };
    expect(parseWithSchema('{"items": [{"title": "Lamp", "count": 2], "tags": ["a"}', nested)?.value).toEqual({
      items: [{ title: 'Lamp', count: 2 }],
      tags: ['a'],
    });
    const early = parseWithSchema('{"title": "Lamp"}, "count": 2}', item);
    expect(early?.value).toEqual({ title: 'Lamp', count: 2 });
    expect(early?.repairs).toContain('removed_stray_brace at /');
    expect(
      parseWithSchema('[{"title": "A", "count": 1}}, {"title": "B", "count": 2}]', { type: 'array', items: item })
        ?.value,
    ).toEqual([
      { title: 'A', count: 1 },
      { title: 'B', count: 2 },
    ]);
    expect(parseWithSchema('{"title": "Lamp, large", "count": 2}```', item)?.value).toEqual({
      title: 'Lamp, large',
      count: 2,
    });
    expect(
      parseWithSchema('{"title": "Lamp, large"```', { type: 'object', properties: { title: { type: 'string' } } })
        ?.value,
    ).toEqual({
      title: 'Lamp, large',
    });
  });
});
