// Regressions for the breaks found in parseWithSchema after PARSE-3 (issue #33, breaker round).
import { InvalidInputError, type JsonSchema } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { parseWithSchema } from './parse-with-schema.js';

const person: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    nick: { type: 'string' },
    age: { type: 'integer' },
    note: { type: 'string' },
  },
};

/** An expression tree: a number, or an operation whose arguments are expressions. */
const expression: JsonSchema = {
  $defs: {
    Expr: {
      anyOf: [
        { type: 'number' },
        {
          type: 'object',
          properties: { op: { const: 'add' }, args: { type: 'array', items: { $ref: '#/$defs/Expr' } } },
          required: ['op', 'args'],
        },
        {
          type: 'object',
          properties: { op: { const: 'mul' }, args: { type: 'array', items: { $ref: '#/$defs/Expr' } } },
          required: ['op', 'args'],
        },
      ],
    },
  },
  $ref: '#/$defs/Expr',
};

function nested(depth: number, leaf: string): string {
  let text = leaf;
  for (let level = 0; level < depth; level++) text = `{"op": "${level % 2 === 0 ? 'add' : 'mul'}", "args": [${text}]}`;
  return text;
}

describe('parseWithSchema: words named like Object.prototype members', () => {
  it('reads constructor, toString, __proto__ and hasOwnProperty as unquoted strings', () => {
    for (const word of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const result = parseWithSchema(`{"name": "Ada", "nick": ${word}}`, person);
      expect(result?.value).toEqual({ name: 'Ada', nick: word });
      expect(result?.repairs).toContain('unquoted_string at /nick');
    }
  });

  it('refuses such a word where no string may stand instead of reading undefined', () => {
    const list: JsonSchema = { type: 'object', properties: { v: { type: 'array', items: { type: 'number' } } } };
    expect(parseWithSchema('{"v": [1, hasOwnProperty]}', list)).toBeUndefined();
    const anything: JsonSchema = { type: 'object', properties: { v: {} }, required: ['v'] };
    const read = parseWithSchema('{"v": [1, constructor]}', anything);
    expect(read === undefined || (read.value as { v: unknown[] }).v[1] === 'constructor').toBe(true);
  });
});

describe('parseWithSchema: recursive unions', () => {
  it('reads a deep expression tree and refuses a deep invalid one without trying every branch at every level', () => {
    // 2^60 branch combinations: this only returns when each (schema node, value node) is fitted once.
    const valid = parseWithSchema(nested(60, '1'), expression);
    expect(valid?.repairs).toEqual([]);
    let node = valid?.value as { op: string; args: unknown[] };
    for (let level = 59; level >= 0; level--) {
      expect(node.op).toBe(level % 2 === 0 ? 'add' : 'mul');
      node = node.args[0] as typeof node;
    }
    expect(node).toBe(1);
    expect(parseWithSchema(nested(60, '"x"'), expression)).toBeUndefined();
    expect(parseWithSchema(nested(30, '"2"'), expression, { coerce: 'lenient' })?.repairs).toEqual([
      `coerced_to_number at ${'/args/0'.repeat(30)}`,
    ]);
  });
});

describe('parseWithSchema: a key written twice', () => {
  it('keeps the first value and lists the dropped duplicate', () => {
    // A quoted example inside an unquoted value is the value's text, not a second entry.
    expect(parseWithSchema('{"age": 42, "note": see the example {"age": 1}', person)).toEqual({
      value: { age: 42, note: 'see the example {"age": 1}' },
      repairs: ['unquoted_string at /note', 'closed_truncated'],
    });
    expect(parseWithSchema("{name: 'Ada', name: 'Bob'}", person)).toEqual({
      value: { name: 'Ada' },
      repairs: [
        'unquoted_key at /name',
        'single_quoted_string at /name',
        'unquoted_key at /name',
        'single_quoted_string at /name',
        'dropped_duplicate_key at /name',
      ],
    });
  });
});

describe('parseWithSchema: which candidate is the answer', () => {
  it('takes a complete leading answer over an example quoted after it in a fence or inline code', () => {
    const fenced = parseWithSchema('{"age": 42}\n\nThe input example was:\n```json\n{"age": 1}\n```', person);
    expect(fenced).toEqual({ value: { age: 42 }, repairs: ['extracted_from_prose'] });
    const inline = parseWithSchema('Unlike `{"age": 7}`, the right one is {"age": 42}', person);
    expect(inline).toEqual({ value: { age: 42 }, repairs: ['extracted_from_prose'] });
  });

  it('still takes a fence that comes first, and a quoted example when nothing else validates', () => {
    expect(parseWithSchema('```json\n{"age": 42}\n```\nnot like {"age": 1}', person)?.value).toEqual({ age: 42 });
    expect(parseWithSchema('The answer is `{"age": 42}`.', person)?.value).toEqual({ age: 42 });
    const strictFirst = { ...person, required: ['name'] };
    expect(parseWithSchema('Like {"age": 1} but: ```json\n{"name": "Ada"}\n```', strictFirst)?.value).toEqual({
      name: 'Ada',
    });
  });
});

describe('parseWithSchema: fenced values and numbers', () => {
  it('ends a fenced value at a closing fence that shares its line with the next entries', () => {
    expect(parseWithSchema('{"name": ```md\nline one  \n```, "age": 3}', person)).toEqual({
      value: { name: 'line one', age: 3 },
      repairs: ['fenced_string at /name'],
    });
    expect(parseWithSchema('{"name": ```\ncode\n```}', person)?.value).toEqual({ name: 'code' });
    // A fence line followed by other text is content (a nested fence inside the block).
    expect(parseWithSchema('{"name": ````md\n```ts\nx\n```\n````, "age": 1}', person)?.value).toEqual({
      name: '```ts\nx\n```',
      age: 1,
    });
  });

  it('refuses a number that overflows to Infinity, in strict JSON and in the lenient reader', () => {
    expect(parseWithSchema('{"name": "Ada", "age": 1e999}', person)).toBeUndefined();
    expect(parseWithSchema('{"name": "Ada", "age": -1e999,}', person)).toBeUndefined();
    expect(parseWithSchema('1e999', { type: 'number' })).toBeUndefined();
    expect(parseWithSchema('[1, 2e400]', { type: 'array', items: { type: 'number' } })).toBeUndefined();
  });
});

describe('parseWithSchema: spaces, comments, numbers and bad input', () => {
  it('treats a no-break space after a value as space', () => {
    expect(parseWithSchema('{"age": 12\u00a0}', person)?.value).toEqual({ age: 12 });
    // 12 where a string must stand is still a number the model wrote: refused by default.
    expect(parseWithSchema('{"name": 12\u00a0}', person)).toBeUndefined();
    expect(parseWithSchema("{'name': 'x'\u00a0}", person)?.value).toEqual({ name: 'x' });
    expect(parseWithSchema("{'name': 'x'\u2003, 'age': 2}", person)?.value).toEqual({ name: 'x', age: 2 });
  });

  it('skips a # comment after a value, and keeps # that starts no comment', () => {
    const commented = parseWithSchema("{'name': 'a' # note\n, 'age': 1,}", person);
    expect(commented?.value).toEqual({ name: 'a', age: 1 });
    expect(commented?.repairs).toContain('removed_comment');
    expect(parseWithSchema('{"age": 3 # years\n}', person)?.value).toEqual({ age: 3 });
    expect(parseWithSchema('{name: Issue #33, age: 1}', person)?.value).toEqual({ name: 'Issue #33', age: 1 });
  });

  it('keeps the exact text of a leading-zero or unsafe integer where a string may stand, and never rounds one', () => {
    const either: JsonSchema = { type: 'object', properties: { v: { type: ['string', 'number'] } } };
    expect(parseWithSchema('{v: 007}', either)?.value).toEqual({ v: '007' });
    expect(parseWithSchema('{v: 12345678901234567890}', either)?.value).toEqual({ v: '12345678901234567890' });
    expect(parseWithSchema('{age: 007}', person)).toEqual({
      value: { age: 7 },
      repairs: ['unquoted_key at /age', 'normalized_number at /age'],
    });
    expect(parseWithSchema('{age: 12345678901234567890}', person)).toBeUndefined();
  });

  it('survives a union that refers back to the root, and refuses an answer that is not a string', () => {
    const looping: JsonSchema = { anyOf: [{ type: 'string' }, { $ref: '#' }] };
    expect(parseWithSchema('hello', looping)).toEqual({ value: 'hello', repairs: ['unquoted_string'] });
    expect(parseWithSchema('[1, 2]', looping)).toBeUndefined();
    expect(() => parseWithSchema(undefined as unknown as string, person)).toThrow(InvalidInputError);
    expect(() => parseWithSchema(42 as unknown as string, person)).toThrow(/must be a string/);
  });
});

describe('parseWithSchema: integers past 2^53 in strict JSON', () => {
  it('refuses one that JSON.parse would round, and keeps an exact one and digits in strings', () => {
    const schema: JsonSchema = { type: 'object', properties: { id: { type: 'integer' }, ref: { type: 'string' } } };
    expect(parseWithSchema('{"id": 12345678901234567890}', schema)).toBeUndefined();
    expect(parseWithSchema('{"id": 9007199254740993}', schema)).toBeUndefined();
    expect(parseWithSchema('{"id": 10000000000000000}', schema)?.value).toEqual({ id: 10000000000000000 });
    expect(parseWithSchema('{"ref": "12345678901234567890", "id": 1}', schema)).toEqual({
      value: { ref: '12345678901234567890', id: 1 },
      repairs: [],
    });
  });
});
