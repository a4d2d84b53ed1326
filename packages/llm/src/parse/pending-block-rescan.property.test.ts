import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { compareStream, cutAt, feedAll as run } from './__fixtures__/stream-check.js';
import type { StreamScrubberOptions } from './create-stream-scrubber.js';
import { initialFenceState } from './fence-tracker.js';
import { createGrammars } from './grammars/create-grammars.js';
import { findProtectedRegions } from './protected-regions.js';
import { reasoningCallTokens } from './reasoning-tracker.js';
import { createScanContext, createToolKnowledge } from './scan-context.js';
import { scanText } from './scan-text.js';

const tools: ToolSchema[] = [
  {
    name: 'add',
    description: 'Add two integers.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' }, note: { type: 'string' } },
    },
  },
  {
    name: 'search',
    description: 'Search.',
    parameters: { type: 'object', properties: { query: { type: 'string' } } },
    format: { type: 'ptype', parameters: ['query'] },
  },
];

/**
 * Pieces that open, fill and close blocks of every grammar (tagged, sentinel, invoke-XML, Harmony,
 * Mistral, MiniMax, FunctionGemma, Command, p-type, bare JSON), JSON bodies whose strings hold
 * `}`, `>`, `]`, quotation marks and closers, nested openers, reasoning regions, fences and prose.
 */
const pieces: readonly string[] = [
  'Step 1: ',
  'plain words ',
  'a 27" monitor ',
  '"quoted" ',
  "it's ",
  '\n',
  ' ',
  '<tool_call>',
  '</tool_call>',
  '<tool_ca',
  '{"name": "add", "arguments": {"a": 1, "b": 2}}',
  '{"name": "add", "arguments": {"a": 1, "note": "x } y > z ] </tool_call> \\" w"}}',
  '{"name": "add", "arguments": {"a": ',
  '"} > ] ` \\"',
  '}}',
  '}',
  ']',
  '>',
  '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>',
  '<tool_call>{"name": "add", "arguments": {"note": "<tool_call>nested</tool_call>"}}</tool_call>',
  '```tool_call\n{"name": "add", "arguments": {"a": 5}}\n```',
  '<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{"a": 1, "note": "}>"}<|tool_call_end|>',
  '<|tool_call_begin|>functions.add:0<|tool_call_argument_begin|>{"a": ',
  '<|tool_call_end|>',
  '{"a": "<|tool_call_end|> } ',
  '{"name": "add", "arguments": {"a": "</tool_call> } ',
  '<invoke name="add"><parameter name="a">1</parameter></invoke>',
  '<invoke name="add"><parameter name="note">x } </invoke> ',
  '</parameter>',
  '</invoke>',
  '<function=add>\n<parameter=a>\n1\n</parameter>\n',
  '</function>',
  '<![CDATA[ </parameter> ',
  ']]>',
  '<|start|>assistant<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a":1,"b":2}<|call|>',
  '<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a": "<|call|> } ',
  '<|start|>assistant<|channel|>commentary to=functions.add ',
  '<|call|>',
  '<|channel|>analysis<|message|>thinking } ',
  '[TOOL_CALLS]add[ARGS]{"a": 1, "b": 2}',
  '<start_function_call>call:add{a:1,b:2}<end_function_call>',
  ' search("rust") ',
  '<think>',
  '</think>',
  '<think>hm } > </think>',
  '```py\nx = {"a": 1}\n```\n',
  '`<tool_call>` ',
];

const text = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 10 }).map((parts) => parts.join(''));
// A ```` ```tool_call ```` fence whose closing run is followed on its line by more blocks is split
// like any other text: the protected fence that line opens inside the fenced call is decided only
// by a later fragment (see `regionCallSpans` in the scrubber).
const splitText = text;

/** `whole` cut at `cuts` (taken modulo its length, sorted, deduplicated). */

/** A stream scan of `buffer` from the start of a response, as the scrubber's `step` runs it. */
function streamScan(buffer: string, leadingReasoning: boolean) {
  const knowledge = createToolKnowledge(tools, { leadingReasoning });
  const context = createScanContext(buffer, 'stream', knowledge, -1);
  const fence = initialFenceState(knowledge.leadingReasoning, reasoningCallTokens(knowledge.allows));
  const regions = findProtectedRegions(buffer, fence, false, true, context.lower);
  return scanText(buffer, createGrammars(context), regions, false, -1);
}

describe('a held block is rescanned only on what can decide it', () => {
  it('a scan holding a block says which characters can decide it: text without them changes nothing', () => {
    // The promise the scrubber's rescan rule rests on (`ScanResult.pendingDecidedBy`).
    let checked = 0;
    fc.assert(
      fc.property(
        text,
        fc.array(fc.constantFrom(...'ab }){"\\\n:,<[\'`>]'), { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (whole, suffixCharacters, leadingReasoning) => {
          const before = streamScan(whole, leadingReasoning);
          const decidedBy = before.pendingDecidedBy;
          if (decidedBy === undefined) return;
          const suffix = suffixCharacters.filter((character) => !decidedBy.includes(character)).join('');
          const after = streamScan(whole + suffix, leadingReasoning);
          checked++;
          expect(after.pending).toBe(before.pending);
          expect(after.parts).toEqual(before.parts);
          expect(after.calls).toEqual(before.calls);
          expect(after.pendingDecidedBy).toBe(decidedBy);
        },
      ),
      { numRuns: 600 },
    );
    // The generator reaches held tagged and sentinel blocks often (about one run in five): not a vacuous pass.
    expect(checked).toBeGreaterThan(30);
  });

  it('releases what one whole feed and a complete parse release, split anywhere and a character at a time', () => {
    fc.assert(
      fc.property(splitText, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (whole, cuts, leadingReasoning) => {
        const options: StreamScrubberOptions = { tools, leadingReasoning };
        const one = run([whole], options);
        for (const fragments of [cutAt(whole, cuts), [...whole]]) {
          const split = run(fragments, options);
          expect(split.text).toBe(one.text);
          expect(split.calls).toEqual(one.calls);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never shows more than a prefix of the complete parse, and ends equal to it', () => {
    // Bare JSON calls stay in: after a call token and a `</think>` the complete parse reads no
    // leading reasoning region, as the scan does (see `reasoningEndsAt` in `parse-complete-text.ts`).
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (whole, cuts, oneCharacter) => {
        const result = compareStream(oneCharacter ? [...whole] : cutAt(whole, cuts), tools);
        expect(result.streamedText).toBe(result.batchText);
        expect(result.streamedCalls).toEqual(result.batchCalls);
        expect(result.alwaysPrefix).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
