import { checkSchema, createValidator, SchemaCompileFailure } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

const RUNS = Number(process.env.VALIDATION_WORK_RUNS ?? propertyRuns(25));
const FORMAT_RUNS = Number(process.env.VALIDATION_FORMAT_RUNS ?? propertyRuns(400));

/** Keywords a refusal may carry besides the schema's own: the budget, the depth, the issue cap. */
const REFUSALS = new Set(['maxBranchVisits', 'maxDepth', 'maxIssues']);

/** D0 = `base`; D1..Dlevels each an `allOf` of `fanOut` references to the previous definition. */
function fanned(base: unknown, fanOut: number, levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { D0: base };
  for (let level = 1; level <= levels; level += 1)
    defs[`D${level}`] = { allOf: Array.from({ length: fanOut }, () => ({ $ref: `#/$defs/D${level - 1}` })) };
  return {
    type: 'object',
    properties: { x: { type: 'array', items: { $ref: `#/$defs/D${levels}` } } },
    $defs: defs,
  };
}

/** A definition that reads a lot per application, a value it accepts and one it refuses. */
const heavyBase = fc.oneof(
  fc
    .record({ entries: fc.integer({ min: 1, max: 200 }), size: fc.integer({ min: 1, max: 40 }) })
    .map(({ entries, size }) => {
      const entry = (index: number) => ({ k: [index, ...new Array(size).fill(0)] });
      return {
        base: { enum: Array.from({ length: entries }, (_, index) => entry(index)) },
        good: entry(entries - 1),
        bad: entry(entries),
        keyword: 'enum',
      };
    }),
  fc.integer({ min: 1, max: 400 }).map((count) => ({
    base: {
      type: 'object',
      patternProperties: Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`^q${index}$`, { type: 'string' }]),
      ),
    },
    good: { q0: 'x', other: 1 },
    bad: { q0: 1 },
    keyword: 'type',
  })),
  fc.integer({ min: 1, max: 600 }).map((count) => ({
    base: {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'integer' }])),
    },
    good: { p0: 1 },
    bad: { p0: 'x' },
    keyword: 'type',
  })),
);

describe('validation work: any fan-out of heavy definitions over any number of items fails closed', () => {
  it('never passes an invalid value, never throws, and refuses only with a typed issue', () => {
    fc.assert(
      fc.property(
        heavyBase,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 300 }),
        ({ base, good, bad, keyword }, fanOut, levels, items) => {
          const validator = createValidator(fanned(base, fanOut, levels));
          const valid = { x: Array.from({ length: items }, () => good) };
          const invalid = { x: [...valid.x.slice(1), bad] };
          const passed = validator.validate(valid);
          if (!passed.ok) for (const issue of passed.issues) expect(REFUSALS.has(issue.keyword)).toBe(true);
          expect(validator.test(valid)).toBe(passed.ok);
          const refused = validator.validate(invalid);
          expect(refused.ok).toBe(false);
          if (!refused.ok)
            expect(refused.issues.some((issue) => issue.keyword === keyword || REFUSALS.has(issue.keyword))).toBe(true);
          expect(validator.test(invalid)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('formats: enforced, never silently ignored', () => {
  const iri = createValidator({ type: 'string', format: 'iri' });
  const iriReference = createValidator({ type: 'string', format: 'iri-reference' });
  const hostname = createValidator({ type: 'string', format: 'idn-hostname' });
  const email = createValidator({ type: 'string', format: 'idn-email' });
  const uri = createValidator({ type: 'string', format: 'uri' });

  it('every IRI is an IRI reference, and a percent-encoded path is an IRI and a URI', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        if (iri.test(text)) expect(iriReference.test(text)).toBe(true);
        const encoded = `https://example.com/${encodeURIComponent(text)}?q=${encodeURIComponent(text)}`;
        expect(iri.test(encoded)).toBe(true);
        expect(uri.test(encoded)).toBe(true);
        // A space, a backslash or a control character is never part of an IRI.
        expect(iri.test(`https://example.com/${text} \\`)).toBe(false);
      }),
      { numRuns: FORMAT_RUNS },
    );
  });

  it('a hostname of LDH labels is an idn-hostname and the domain of an idn-email; a space or @ never is', () => {
    const label = fc
      .stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/)
      .filter((text) => text.slice(2, 4) !== '--');
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), fc.string({ maxLength: 20 }), (labels, junk) => {
        const name = labels.join('.');
        expect(hostname.test(name)).toBe(true);
        expect(email.test(`user.name@${name}`)).toBe(true);
        expect(hostname.test(`${name} ${junk}`)).toBe(false);
        expect(hostname.test(`${junk}@${name}`)).toBe(false);
      }),
      { numRuns: FORMAT_RUNS },
    );
  });

  it('a schema naming any other format is refused with a typed error naming it', () => {
    const known = new Set(['date', 'time', 'email', 'uri', 'iri', 'hostname', 'ipv4', 'ipv6', 'uuid', 'regex', 'byte']);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/).filter((name) => !known.has(name)),
        (name) => {
          let caught: unknown;
          try {
            checkSchema({ type: 'object', properties: { field: { type: 'string', format: `x-${name}` } } });
          } catch (error) {
            caught = error;
          }
          expect(SchemaCompileFailure.isInstance(caught)).toBe(true);
          expect((caught as SchemaCompileFailure).format).toBe(`x-${name}`);
        },
      ),
      { numRuns: FORMAT_RUNS },
    );
  });
});
