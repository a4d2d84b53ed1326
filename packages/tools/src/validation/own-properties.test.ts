import { describe, expect, it } from 'vitest';
import { checkSchema, createValidator, SchemaCompileFailure } from './create-validator.js';

/** Schemas and values as a provider's JSON gives them: `__proto__` is then an own key. */
const json = JSON.parse;

const check = (schema: unknown, value: unknown) => {
  const validator = createValidator(schema as Record<string, unknown>);
  const result = validator.validate(value);
  // The first-failure check agrees.
  expect(validator.test(value)).toBe(result.ok);
  return result;
};

describe('property names Object.prototype also has (proto.mjs, protoattr.mjs)', () => {
  it('requires own properties: `required: [constructor]` refuses {}', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) {
      const result = check(json(`{"type":"object","required":["${name}"]}`), {});
      expect(result).toEqual({
        ok: false,
        issues: [{ path: `/${name}`, keyword: 'required', message: 'is required' }],
      });
      expect(check(json(`{"type":"object","required":["${name}"]}`), json(`{"${name}":1}`)).ok).toBe(true);
    }
  });

  it('checks only own properties: `properties: {toString: ...}` accepts {}', () => {
    expect(check({ type: 'object', properties: { toString: { type: 'string' } } }, {}).ok).toBe(true);
    expect(
      check({ type: 'object', properties: { constructor: { type: 'string' } }, additionalProperties: false }, {}).ok,
    ).toBe(true);
    expect(check({ type: 'object', properties: { constructor: { type: 'string' } } }, { constructor: 1 }).ok).toBe(
      false,
    );
    expect(check({ type: 'object', dependentRequired: { constructor: ['x'] } }, {}).ok).toBe(true);
    expect(check({ type: 'object', dependentSchemas: { hasOwnProperty: { required: ['x'] } } }, {}).ok).toBe(true);
  });

  it('enforces a `__proto__` entry of properties, patternProperties and dependentSchemas', () => {
    const typed = json('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
    expect(check(typed, json('{"__proto__":123}'))).toEqual({
      ok: false,
      issues: [{ path: '/__proto__', keyword: 'type', message: 'must be string' }],
    });
    expect(check(typed, json('{"__proto__":"x"}')).ok).toBe(true);
    const closed = json('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}');
    expect(check(closed, json('{"__proto__":"x"}')).ok).toBe(true);
    expect(check(closed, json('{"__proto__":"x","y":1}')).ok).toBe(false);
    const dependent = json('{"type":"object","dependentSchemas":{"__proto__":{"required":["x"]}}}');
    expect(check(dependent, json('{"__proto__":1}')).ok).toBe(false);
    expect(check(dependent, json('{"__proto__":1,"x":2}')).ok).toBe(true);
    const pattern = json('{"type":"object","patternProperties":{"__proto__":{"type":"string"}}}');
    expect(check(pattern, json('{"__proto__":1}')).ok).toBe(false);
    expect(check(pattern, json('{"a__proto__b":1}')).ok).toBe(false);
    expect(check(pattern, json('{"a__proto__b":"x","other":1}')).ok).toBe(true);
    const referenced = json(
      '{"$defs":{"__proto__":{"type":"string"}},"type":"object","properties":{"a":{"$ref":"#/$defs/__proto__"}}}',
    );
    expect(check(referenced, { a: 1 }).ok).toBe(false);
    expect(check(referenced, { a: 'x' }).ok).toBe(true);
  });

  it('refuses a draft-07 `dependencies` entry named `__proto__` (ajv would skip it)', () => {
    const schema = json(
      '{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","dependencies":{"__proto__":["x"]}}',
    );
    expect(() => checkSchema(schema)).toThrow(SchemaCompileFailure);
    expect(() => createValidator(schema)).toThrow(/__proto__/);
  });

  it('refuses a `$ref` through inherited names or to something that is not a schema', () => {
    for (const ref of ['#/$defs/constructor/prototype', '#/$defs/__proto__', '#/$defs/toString', '#/required']) {
      const schema = { $defs: {}, required: ['a'], $ref: ref };
      expect(() => checkSchema(schema), ref).toThrow(SchemaCompileFailure);
      expect(() => createValidator(structuredClone(schema)), ref).toThrow(/can't resolve reference/);
    }
    expect(() => checkSchema({ $ref: '#/%E0%A4%A' })).toThrow(SchemaCompileFailure);
  });

  it('checks draft-07 dependencies lists and dependentRequired (depreq.mjs: every call threw)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      dependentRequired: { a: ['b'] },
    };
    expect(check(schema, { a: 'x', b: 'y' }).ok).toBe(true);
    expect(check(schema, { a: 'x' })).toEqual({
      ok: false,
      issues: [{ path: '', keyword: 'dependentRequired', message: 'must have property b when property a is present' }],
    });
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', dependencies: { a: ['b'] } };
    expect(check(draft07, { a: 1 }).ok).toBe(false);
    expect(check(draft07, { a: 1, b: 2 }).ok).toBe(true);
  });
});
