import {
  cleanSchema,
  coerceToSchema,
  createPformatRegistry,
  createStreamScrubber,
  createToolDialect,
  decodeArguments,
  inlineLocalRefs,
  normalizeParameters,
  parseCodeCallBody,
  parseJsonCall,
  parseLenientJson,
  parsePformatBody,
  parsePtypeCall,
  parseToolCalls,
  parseToolResultsEnvelope,
  parseXmlCall,
  recoverRelaxedObject,
  recoverToolArguments,
  resolveToolName,
  TinyError,
  type ToolDialectKind,
  toStrictSchema,
  trimToolNameJunk,
} from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS, protocolText } from './arbitraries.js';
import { fuzzTools, searchTool, weatherTool } from './fixtures.js';

const settings = { numRuns: FUZZ_RUNS };
const isPlainObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Runs `fn`; a thrown error must be a TinyError (typed), never a TypeError/RangeError from a bug. */
function typedOrValue<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    expect(TinyError.isInstance(error), String(error)).toBe(true);
    return undefined;
  }
}

describe(`fuzzing text-facing functions (${FUZZ_RUNS} cases each)`, () => {
  it('parseToolCalls returns well-formed results and never invents a tool for known-tool input', () => {
    fc.assert(
      fc.property(protocolText, (text) => {
        const parsed = parseToolCalls(text, { tools: fuzzTools });
        expect(typeof parsed.text).toBe('string');
        for (const call of parsed.calls) {
          expect(typeof call.name).toBe('string');
          if (call.invalid === undefined) expect(isPlainObject(call.arguments)).toBe(true);
          else expect(typeof call.arguments).toBe('string');
        }
      }),
      settings,
    );
  });

  it('the stream scrubber releases exactly the calls of a whole parse, for any split', () => {
    fc.assert(
      fc.property(protocolText, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const scrubber = createStreamScrubber({ tools: fuzzTools });
        const calls = [];
        let from = 0;
        for (const point of [...points, text.length]) {
          calls.push(...scrubber.feed(text.slice(from, point)).calls);
          from = point;
        }
        calls.push(...scrubber.flush().calls);
        expect(calls).toEqual(parseToolCalls(text, { tools: fuzzTools }).calls);
      }),
      settings,
    );
  });

  it('both repair ladders return an object or nothing, and preserve valid objects', () => {
    fc.assert(
      fc.property(fc.oneof(protocolText, fc.json()), (text) => {
        const relaxed = recoverRelaxedObject(text);
        expect(relaxed === undefined || isPlainObject(relaxed)).toBe(true);
        const provider = recoverToolArguments(text);
        expect(provider === undefined || isPlainObject(provider)).toBe(true);
        const lenient = parseLenientJson(text);
        if (lenient !== undefined)
          expect(['strict', 'code_fence', 'slice', 'relaxed', 'closed']).toContain(lenient.repair);
        let strict: unknown;
        try {
          strict = JSON.parse(text);
        } catch {
          return;
        }
        if (isPlainObject(strict)) expect(relaxed).toEqual(strict);
        expect(lenient?.repair).toBe('strict');
      }),
      settings,
    );
  });

  it('every seed format parser answers with a result, never a throw', () => {
    fc.assert(
      fc.property(protocolText, (text) => {
        for (const result of [
          parseJsonCall(text, weatherTool),
          parseXmlCall(text, { ...weatherTool, format: { type: 'xml' } }),
          parsePtypeCall(text, { ...searchTool, format: { type: 'ptype', parameters: ['query', 'limit'] } }),
        ]) {
          expect(typeof result.ok).toBe('boolean');
          if (result.ok) expect(isPlainObject(result.call.arguments)).toBe(true);
        }
      }),
      settings,
    );
  });

  it('P-Format and code-call bodies refuse or decode, never throw', () => {
    const registry = createPformatRegistry(fuzzTools);
    fc.assert(
      fc.property(protocolText, (text) => {
        const pformat = parsePformatBody(text, registry);
        expect(pformat === undefined || isPlainObject(pformat.arguments)).toBe(true);
        const code = parseCodeCallBody(text, registry);
        expect(code === undefined || Array.isArray(code)).toBe(true);
      }),
      settings,
    );
  });

  it('dialects read any response without throwing', () => {
    const dialects = (['native', 'xml', 'pformat', 'python', 'typescript'] as ToolDialectKind[]).map(createToolDialect);
    fc.assert(
      fc.property(protocolText, (text) => {
        for (const dialect of dialects) {
          const parsed = dialect.parseResponse({ content: text }, fuzzTools);
          expect(typeof parsed.replayText).toBe('string');
        }
        expect(Array.isArray(parseToolResultsEnvelope(text))).toBe(true);
      }),
      { numRuns: Math.ceil(FUZZ_RUNS / 5) * 5 },
    );
  });

  it('argument decoding and coercion accept any value', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), protocolText), (value) => {
        expect(isPlainObject(decodeArguments(value))).toBe(true);
        const coerced = coerceToSchema(value, weatherTool.parameters);
        expect(typeof coerced.changed).toBe('boolean');
      }),
      settings,
    );
  });

  it('name repair returns a known name or the junk-trimmed input', () => {
    const known = ['weather', 'search', 'send_email', 'read_file'];
    fc.assert(
      fc.property(protocolText, (raw) => {
        const name = resolveToolName(raw, known);
        expect(known.includes(name) || name === trimToolNameJunk(raw)).toBe(true);
      }),
      settings,
    );
  });

  it('schema projection accepts any JSON object as a schema: a result or a typed error', () => {
    const schema = fc.dictionary(
      fc.constantFrom(
        'type',
        'properties',
        'required',
        '$ref',
        '$defs',
        'anyOf',
        'items',
        'enum',
        'const',
        'additionalProperties',
        'x',
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(schema, (value) => {
        for (const strategy of ['openai', 'anthropic', 'gemini', 'conservative'] as const) {
          typedOrValue(() => cleanSchema(value, strategy));
        }
        typedOrValue(() => inlineLocalRefs(value));
        typedOrValue(() => normalizeParameters(value));
        typedOrValue(() => toStrictSchema(value));
      }),
      { numRuns: Math.ceil(FUZZ_RUNS / 2) },
    );
  });
});
