import {
  createNativeDialect,
  createStreamScrubber,
  createToolDialect,
  parseToolCall,
  parseToolCalls,
  renderToolCall,
  type ToolFormat,
  type ToolSchema,
} from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// Issue #31: for random schemas and values, a call written in a tool's format reads back as the
// same call, per format (json, xml, ptype), through the format's own parser and through the
// response parsers the harness uses (native dialect beside a structured call, and text dialects).
const RUNS = Number(process.env.TOOL_FORMAT_RUNS ?? propertyRuns(200));

type Field =
  | { readonly kind: 'string' | 'integer' | 'number' | 'boolean' }
  | { readonly kind: 'enum'; readonly members: readonly string[] }
  | { readonly kind: 'nullable' }
  | { readonly kind: 'array'; readonly of: Field }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, Field>> };

const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);

const leaf: fc.Arbitrary<Field> = fc.oneof(
  fc.constantFrom<Field>({ kind: 'string' }, { kind: 'integer' }, { kind: 'number' }, { kind: 'boolean' }),
  fc.constant<Field>({ kind: 'nullable' }),
  fc
    .uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 1, maxLength: 4 })
    .map((members): Field => ({ kind: 'enum', members })),
);

const field: fc.Arbitrary<Field> = fc.letrec<{ field: Field }>((tie) => ({
  field: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('field').map((of): Field => ({ kind: 'array', of })),
    fc.dictionary(name, tie('field'), { minKeys: 1, maxKeys: 3 }).map((fields): Field => ({ kind: 'object', fields })),
  ),
})).field;

function schemaOf(spec: Field): Record<string, unknown> {
  switch (spec.kind) {
    case 'enum':
      return { type: 'string', enum: spec.members };
    case 'nullable':
      return { type: ['string', 'null'] };
    case 'array':
      return { type: 'array', items: schemaOf(spec.of) };
    case 'object':
      return {
        type: 'object',
        properties: Object.fromEntries(Object.entries(spec.fields).map(([key, inner]) => [key, schemaOf(inner)])),
        required: Object.keys(spec.fields),
      };
    default:
      return { type: spec.kind };
  }
}

/** Strings the model could write: `trimmed` ones have no whitespace at either end (grammars trim model text). */
function text(trimmed: boolean): fc.Arbitrary<string> {
  const any = fc.string({ unit: 'grapheme', maxLength: 12 });
  return trimmed ? any.map((value) => value.trim()) : any;
}

function valueFor(spec: Field, trimmed: boolean): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'string':
      return text(trimmed);
    case 'integer':
      return fc.integer();
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (value === 0 ? 0 : value));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...spec.members);
    case 'nullable':
      return fc.option(text(trimmed), { nil: null });
    case 'array':
      return fc.array(valueFor(spec.of, false), { maxLength: 3 });
    case 'object':
      return fc.record(
        Object.fromEntries(Object.entries(spec.fields).map(([key, inner]) => [key, valueFor(inner, false)])),
      );
  }
}

interface Case {
  readonly tool: ToolSchema;
  readonly args: Record<string, unknown>;
}

/** A tool of `format` with random top-level fields (some required), and random arguments for it. */
function toolCase(format: ToolFormat['type'], trimmed: boolean, toolName = 'tool_x'): fc.Arbitrary<Case> {
  return fc
    .dictionary(name, fc.tuple(field, fc.boolean()), { minKeys: 1, maxKeys: 5 })
    .chain((fields) => {
      const keys = Object.keys(fields);
      return fc.tuple(
        fc.constant(fields),
        fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length }),
      );
    })
    .chain(([fields, order]) => {
      const keys = Object.keys(fields);
      const required = keys.filter((key) => fields[key]?.[1] === true);
      const parameters = {
        type: 'object',
        properties: Object.fromEntries(keys.map((key) => [key, schemaOf((fields[key] as [Field, boolean])[0])])),
        required,
      };
      const toolFormat: ToolFormat =
        format === 'ptype'
          ? { type: 'ptype', parameters: order }
          : format === 'xml'
            ? { type: 'xml' }
            : { type: 'json' };
      const tool: ToolSchema = { name: toolName, description: 'Random tool.', parameters, format: toolFormat };
      // Top-level strings are trimmed by the grammars only at the top level (nested values are left as decoded).
      const shapes = Object.fromEntries(
        keys.map((key) => [key, valueFor((fields[key] as [Field, boolean])[0], trimmed)]),
      );
      return fc.record(shapes, { requiredKeys: required }).map((args): Case => ({ tool, args }));
    });
}

const formats = ['json', 'xml', 'ptype'] as const;

describe.each(formats)('format %s', (format) => {
  it('parseToolCall(renderToolCall(call)) is the call', () => {
    fc.assert(
      fc.property(toolCase(format, false), ({ tool, args }) => {
        const written = renderToolCall({ name: tool.name, arguments: args }, tool);
        const read = parseToolCall(written, tool);
        expect(read.ok ? read.call : read.error.message).toEqual({ name: tool.name, arguments: args });
      }),
      { numRuns: RUNS },
    );
  });
});

describe.each(['xml', 'ptype'] as const)('format %s in a model response', (format) => {
  it('a native turn mixing a structured call and a written call reads back both calls', () => {
    const native = createNativeDialect();
    const lookup: ToolSchema = {
      name: 'lookup',
      parameters: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    };
    fc.assert(
      fc.property(toolCase(format, true), text(true), ({ tool, args }, narrative) => {
        const written = renderToolCall({ name: tool.name, arguments: args }, tool);
        const structured = { id: 'n1', name: 'lookup', arguments: { key: 'k' }, rawArguments: '{"key":"k"}' };
        const prose = narrative.replaceAll('<', '').replaceAll('(', '').trim();
        const content = prose === '' ? written : `${prose}\n${written}`;
        const parsed = native.parseResponse({ content, toolCalls: [structured] }, [lookup, tool]);
        expect(parsed.calls.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual([
          { name: 'lookup', arguments: { key: 'k' } },
          { name: tool.name, arguments: args },
        ]);
        expect(parsed.calls[1]?.id).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });

  it('every text dialect reads the written call back', () => {
    const dialects = (['tagged_json', 'pformat', 'python', 'typescript'] as const).map((kind) =>
      createToolDialect(kind),
    );
    fc.assert(
      fc.property(toolCase(format, true), ({ tool, args }) => {
        for (const dialect of dialects) {
          const written = dialect.renderCall({ name: tool.name, arguments: args }, [tool]);
          const parsed = dialect.parseResponse({ content: written }, [tool]);
          expect(parsed.calls.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual([
            { name: tool.name, arguments: args },
          ]);
        }
      }),
      { numRuns: Math.max(1, Math.floor(RUNS / 4)) },
    );
  });
});

/** Feeds `text` to a fresh scrubber in pieces of the given sizes (cycled) and joins what it shows. */
function scrub(
  text: string,
  tools: readonly ToolSchema[],
  sizes: readonly number[],
): { readonly live: string; readonly all: string } {
  const scrubber = createStreamScrubber({ tools });
  let live = '';
  for (let at = 0, step = 0; at < text.length; step += 1) {
    const size = sizes[step % sizes.length] ?? 1;
    live += scrubber.feed(text.slice(at, at + size)).text;
    at += size;
  }
  return { live, all: live + scrubber.flush().text };
}

describe.each(['xml', 'ptype'] as const)('format %s in a stream', (format) => {
  it('the scrubber never shows a piece of a call, for any split, and agrees with the batch parse', () => {
    const prose = fc.stringMatching(/^[A-Za-z,.][A-Za-z ,.]{0,18}[A-Za-z.]$/);
    fc.assert(
      fc.property(
        toolCase(format, true),
        prose,
        prose,
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 }),
        ({ tool, args }, before, after, cut, sizes) => {
          const full = renderToolCall({ name: tool.name, arguments: args }, tool);
          // A call cut short (the stream ended inside it) must not leak either. It is cut after its
          // opener and the first characters of its body, so a call has started.
          const opener = format === 'xml' ? tool.name.length + 2 : tool.name.length + 1;
          const written = cut ? full.slice(0, Math.max(opener + 2, Math.floor(full.length / 2))) : full;
          // A cut call ends the stream (nothing after it), as when a model's output is cut off.
          const text = cut ? `${before}\n${written}` : `${before}\n${written}\n${after}`;
          const shown = scrub(text, [tool], sizes);
          const batch = parseToolCalls(text, { tools: [tool], allowBareJson: false }).text;
          expect(shown.all).toBe(batch);
          // No piece of a call is ever shown, complete or cut short: a call cut short is an
          // invalid call (issue 31, B2), never text released at the end of the stream.
          expect(shown.all).not.toContain(`${tool.name}(`);
          expect(shown.all).not.toContain(`<${tool.name}`);
          const calls = parseToolCalls(text, { tools: [tool], allowBareJson: false }).calls;
          const isCut = written.length < full.length;
          expect(calls.map((call) => [call.name, call.invalid !== undefined])).toEqual([[tool.name, isCut]]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// Issue 31, B1: the same structural rule for every own format: once a call has started,
// everything to its end is its content. Call markup written inside a string value (another xml or
// ptype tool's call, a tagged JSON call) is never read as a call, whether the outer call closes or
// the text ends inside it.
describe('markup inside an own-format call value', () => {
  const inner: ToolSchema = {
    name: 'inner_tool',
    description: 'Must never run from inside a value.',
    parameters: { type: 'object', properties: { v: { type: 'string' } }, required: ['v'] },
    format: { type: 'xml' },
  };
  const innerP: ToolSchema = { ...inner, name: 'inner_p', format: { type: 'ptype', parameters: ['v'] } };
  const plain: ToolSchema = { name: 'plain_tool', parameters: { type: 'object', properties: {} } };
  const markup = fc.constantFrom(
    '<inner_tool><v>x</v></inner_tool>',
    'inner_p("x")',
    '<tool_call>{"name":"plain_tool","arguments":{}}</tool_call>',
    '<inner_tool><v>',
  );
  it('never reads a call inside a value, and a call the text ends inside is one invalid call', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ToolFormat>({ type: 'xml' }, { type: 'ptype', parameters: ['text'] }),
        fc.stringMatching(/^[a-z ]{0,8}$/),
        markup,
        fc.stringMatching(/^[a-z ]{0,8}$/),
        fc.boolean(),
        (format, head, middle, tail, cut) => {
          const outer: ToolSchema = {
            name: 'outer_tool',
            parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
            format,
          };
          const tools = [outer, inner, innerP, plain];
          const value = `${head}${middle}${tail}`;
          const full = renderToolCall({ name: 'outer_tool', arguments: { text: value } }, outer);
          // Cut inside the value: after the markup, before the call's end.
          const written = cut ? full.slice(0, full.indexOf(middle) + middle.length) : full;
          const parsed = parseToolCalls(`Sure.\n${written}`, { tools, allowBareJson: false });
          expect(parsed.calls.map((call) => [call.name, call.invalid !== undefined])).toEqual([['outer_tool', cut]]);
          // Model-written xml string fields are trimmed as Cline trims them; ptype strings are exact.
          if (!cut) expect(parsed.calls[0]?.arguments).toEqual({ text: format.type === 'xml' ? value.trim() : value });
          expect(parsed.text).toBe('Sure.');
        },
      ),
      { numRuns: RUNS },
    );
  });
});
