import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createValidator } from '../validation/create-validator.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { projectInjectedArguments } from './injected-arguments.js';

// Breaker B5 (issue 31): an injected name reached a rendered declaration through
// `dependentRequired`. Every keyword that names the tool's own properties must lose it.

const HIDDEN = 'hostKey';
const injected = [{ name: HIDDEN, source: 'host' }] as const;
const names = ['to', 'body', HIDDEN] as const;
const leaf = { type: 'string' };

/** Random schemas over the keywords that name properties of the object they apply to. */
const arbitrary = fc.letrec<{ node: Record<string, unknown> }>((tie) => {
  const name = fc.constantFrom(...names);
  const nameList = fc.uniqueArray(name, { maxLength: 3 });
  const keyed = <T>(value: fc.Arbitrary<T>) =>
    fc.dictionary(name, value, { maxKeys: 3 }).map((map) => ({ ...map }) as Record<string, T>);
  const sub = fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant({}), tie('node'));
  return {
    node: fc.record(
      {
        properties: keyed(fc.constant(leaf)),
        required: nameList,
        dependentRequired: keyed(nameList),
        dependentSchemas: keyed(sub),
        dependencies: keyed(fc.oneof(nameList, sub)),
        allOf: fc.array(sub, { minLength: 1, maxLength: 2 }),
        anyOf: fc.array(sub, { minLength: 1, maxLength: 2 }),
        oneOf: fc.array(sub, { minLength: 1, maxLength: 2 }),
        not: sub,
        if: sub,
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
        then: sub,
        else: sub,
      },
      { requiredKeys: [] },
    ),
  };
}).node;

const root = arbitrary.map((node) => ({
  ...node,
  type: 'object',
  properties: { to: leaf, body: leaf, [HIDDEN]: leaf },
}));

describe('projectInjectedArguments on every keyword that names a property', () => {
  it('leaves no injected name in properties, required, dependentRequired, dependentSchemas, dependencies or a branch', () => {
    fc.assert(
      fc.property(root, (schema) => {
        const projected = projectInjectedArguments(schema as JsonSchema, injected);
        expect(JSON.stringify(projected)).not.toContain(`"${HIDDEN}"`);
      }),
      { numRuns: 150 },
    );
  });

  it('only relaxes: what the declared schema accepts with the host value, the projection accepts without it', () => {
    const value = fc.record(
      { to: fc.string({ maxLength: 2 }), body: fc.string({ maxLength: 2 }) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(root, value, (schema, args) => {
        let accepted: boolean;
        try {
          accepted = createValidator(schema as JsonSchema).validate({ ...args, [HIDDEN]: 'k' }).ok;
        } catch {
          return; // A generated schema the validator cannot compile says nothing about the projection.
        }
        if (!accepted) return;
        const projected = createValidator(projectInjectedArguments(schema as JsonSchema, injected));
        expect(projected.validate(args).ok).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('strips the breaker’s dependentRequired case and keeps the rest of the keyword', () => {
    const schema = {
      type: 'object',
      properties: { to: leaf, body: leaf, [HIDDEN]: leaf },
      required: ['to', HIDDEN],
      dependentRequired: { to: [HIDDEN, 'body'], [HIDDEN]: ['to'] },
      oneOf: [{ required: [HIDDEN] }, { required: ['body'] }],
      if: { required: [HIDDEN] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { required: ['body'] },
    };
    expect(projectInjectedArguments(schema, injected)).toEqual({
      type: 'object',
      properties: { to: leaf, body: leaf },
      required: ['to'],
      dependentRequired: { to: ['body'] },
      anyOf: [{ required: [] }, { required: ['body'] }],
    });
  });
});
