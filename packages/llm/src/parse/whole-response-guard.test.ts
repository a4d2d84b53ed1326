import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber, type StreamScrubberOptions } from './create-stream-scrubber.js';
import { parseCompleteText } from './parse-complete-text.js';
import { createToolKnowledge } from './scan-context.js';
import { createWholeResponseGuard } from './whole-response-guard.js';

const get: ToolSchema = {
  name: 'get',
  description: 'Get the weather.',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const weather: ToolSchema = { ...get, name: 'get_current_weather' };
const call = '{"name": "get", "arguments": {"city": "Oslo"}}';

/** The batch answer the scrubber's TSDoc promises (the whole-response JSON reading when it reads calls and differs). */
function batch(text: string, options: StreamScrubberOptions) {
  const knowledge = createToolKnowledge(options.tools, options);
  const whole = parseCompleteText(text, knowledge, { allowBareJson: true, allowGlmLines: false });
  const streamable = parseCompleteText(text, knowledge, { allowBareJson: false, allowGlmLines: false });
  const readsWhole =
    whole.calls.some((found) => found.source === 'bare_json') &&
    (whole.text !== streamable.text || whole.calls.length !== streamable.calls.length);
  return readsWhole ? whole : streamable;
}

function stream(fragments: readonly string[], options: StreamScrubberOptions) {
  const scrubber = createStreamScrubber(options);
  const steps: string[] = [];
  const calls: string[] = [];
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    steps.push(step.text);
    calls.push(...step.calls.map((found) => `${found.name}:${found.source}`));
  }
  const last = scrubber.flush();
  calls.push(...last.calls.map((found) => `${found.name}:${found.source}`));
  return { text: steps.join('') + last.text, shown: steps.join(''), calls };
}

function splits(text: string): string[][] {
  const every = (size: number) =>
    Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, i * size + size));
  return [[text], [...text], every(2), every(3), every(7)];
}

describe('a call a fence around the whole reply holds is released once', () => {
  // Found by the scrubber's tester: the block scan released the fenced call as `tagged_json` and the
  // whole-response reading released it again as `bare_json` (the tool would run twice).
  const wraps = [
    (body: string) => `\`\`\`\`tool_call\n${body}\n\`\`\`\``,
    (body: string) => `\`\`\`\`\`tool_call\n${body}\n\`\`\`\`\``,
    (body: string) => `\`\`\`\`tool_code\n${body}\n\`\`\`\``,
    (body: string) => `\`\`\`\`invoke\n${body}\n\`\`\`\``,
    (body: string) => `~~~tool_call\n${body}\n~~~`,
    (body: string) => `\`\`\`\`tool_call\n[${body}]\n\`\`\`\``,
  ];
  const cases = wraps.flatMap((wrap) =>
    ['', '</think>', 'Sure.\n'].flatMap((before) =>
      ['', '\n', '\nDone.'].flatMap((after) =>
        [true, false].map((leadingReasoning) => [before + wrap(call) + after, leadingReasoning] as const),
      ),
    ),
  );
  it.each(cases)(
    '%j (leadingReasoning %s) streams the batch calls and text for every split',
    (text, leadingReasoning) => {
      const options = { tools: [get], leadingReasoning };
      const expected = batch(text, options);
      for (const fragments of splits(text)) {
        const got = stream(fragments, options);
        expect(got.calls).toEqual(expected.calls.map((found) => `${found.name}:${found.source}`));
        expect(got.text).toBe(expected.text);
      }
    },
  );
});

describe('the answer after a leading reasoning region', () => {
  // xLAM / Qwen3 shapes (held-out-02): the reasoning stays narrative, the JSON answer is the call.
  const cases = [
    '<think>I\'ll help you with that.</think>[{"name": "get_current_weather", "arguments": {"city": "Dallas"}}]',
    '<think>x</think>\n```json\n{"name": "get_current_weather", "arguments": {"city": "Dallas"}}\n```',
    '</think>```json\n{"name": "get_current_weather", "arguments": {"city": "Oslo"}}\n```',
    'plan </think>\n~~~tool_call\n{"name": "get_current_weather", "arguments": {"city": "Oslo"}}\n~~~',
    '<THINKING>x</thinking> {"name": "get_current_weather", "arguments": {}}',
  ];
  it.each(cases)('%j never shows its opener, for every split', (text) => {
    const options = { tools: [weather] };
    const expected = batch(text, options);
    expect(expected.calls).toHaveLength(1);
    for (const fragments of splits(text)) {
      const got = stream(fragments, options);
      expect(got.text).toBe(expected.text);
      expect(expected.text.startsWith(got.shown)).toBe(true);
      expect(got.calls).toEqual(['get_current_weather:bare_json']);
    }
  });

  it("is no such answer after a call token: a `</think>` in the call's value is content, and the text after the call flows", () => {
    // Kimi's call token decides that the reply did not start in reasoning (the batch parse reads no
    // answer after that closer), so the guard holds nothing until the stream ends.
    const value = JSON.stringify({ city: 'x</think>{"name": "get", "arguments": {}}' });
    const text = `<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>${value}<|tool_call_end|><|tool_calls_section_end|> The weather follows here.`;
    const options = { tools: [get] };
    const expected = batch(text, options);
    expect(expected.calls.map((found) => found.name)).toEqual(['get']);
    for (const fragments of [[text], [...text]]) {
      const got = stream(fragments, options);
      expect(got.text).toBe(expected.text);
      expect(got.shown).toBe('The weather follows here.');
      expect(got.calls).toEqual(['get:sentinel']);
    }
  });
});

describe('a brace in prose', () => {
  const prose = `${'More explanation about the code here.\n'.repeat(60)}`;
  const cases: Array<[string, StreamScrubberOptions]> = [
    [`Use { to open a block.\n${prose}`, {}],
    [`In C, a block starts with { and ends later.\n\n${prose}`, { tools: [get] }],
    [`Send {"id": 1, ...\n${prose}`, { tools: [get] }],
    [`Send {"id": 1, ...\n${prose}`, {}],
    [`A { here\n}\n${prose}`, {}],
    [`Use { ${'a"b '.repeat(200)}`, {}],
    // A reply opening with `[` that no strict JSON array can start with is prose from the start.
    [`[THINK]${prose}`, { tools: [get] }],
    // The scrubber's tester (round 3): each was held to the end of the stream. A strict JSON array
    // breaks at `/`, `o`, `i`, `-`, or closes with no object (`[1]`, `["quoted"]`): no call array.
    [`[1/2] Install the package first.\n${prose}`, {}],
    [`[note] ${prose}`, { tools: [get] }],
    [`[fix] ${prose}`, {}],
    [`[1] ${prose}`, { tools: [get] }],
    [`[-] item\n${prose}`, {}],
    [`["quoted"] label\n${prose}`, { tools: [get] }],
    [`[true story] ${prose}`, {}],
    [`  \n[ server] ${prose}`, {}],
    // A fence around a TOML section: its body starts with `[` and the next characters decide, as above.
    [`\`\`\`toml\n[server]\nport = 8080\n\`\`\`\nThat config sets the port.\n${prose}`, {}],
    [`\`\`\`\n[1/2] Install the package first.\n\`\`\`\nThen run it.\n${prose}`, { tools: [get] }],
    [`~~~\n[ server]\nport=1\n~~~\n${prose}`, {}],
    [`\`\`\`\n[{"a": 1}] is an example\n\`\`\`\n${prose}`, {}],
  ];
  it.each(cases)('%# is released at most 64 characters late, fed a character at a time', (text, options) => {
    const expected = batch(text, options).text;
    const scrubber = createStreamScrubber(options);
    let shown = '';
    for (let index = 0; index < text.length; index++) {
      shown += scrubber.feed(text.charAt(index)).text;
      expect(expected.startsWith(shown)).toBe(true);
      // Every character of `text` is visible text here, so what was fed minus what was shown is the lag.
      expect(index + 1 - shown.length).toBeLessThanOrEqual(64);
    }
    expect(shown + scrubber.flush().text).toBe(expected);
  });

  it('holds a strict JSON prefix that may still name an offered tool, then the call it turns out to be', () => {
    const text = `Here: {"arguments": {"city": "Oslo"}, "name": "get"} and more text after it.`;
    const options = { tools: [get] };
    for (const fragments of splits(text)) {
      const got = stream(fragments, options);
      expect(got.shown).toBe('Here:');
      expect(got.text).toBe(batch(text, options).text);
      expect(got.calls).toEqual(['get:bare_json']);
    }
  });

  it('holds whitespace of any kind before a call in prose with it (the narrative trims a no-break space too)', () => {
    for (const space of ['\u00a0', '\u2003', '\u2028', ' \u00a0\n', '\u3000']) {
      const text = `Here:${space}${call}`;
      const options = { tools: [get] };
      expect(batch(text, options).text).toBe('Here:');
      for (const fragments of splits(text)) {
        const got = stream(fragments, options);
        expect(got.shown).toBe('Here:');
        expect(got.text).toBe('Here:');
        expect(got.calls).toEqual(['get:bare_json']);
      }
    }
  });

  it('reads a call that closed inside a broken container, as the prose reading does', () => {
    const text = `Try {"a": ${call} oops and then more words.`;
    const options = { tools: [get] };
    const expected = batch(text, options);
    expect(expected.calls).toHaveLength(1);
    for (const fragments of splits(text)) {
      const got = stream(fragments, options);
      expect(expected.text.startsWith(got.shown)).toBe(true);
      expect(got.text).toBe(expected.text);
      expect(got.calls).toEqual(['get:bare_json']);
    }
  });
});

describe('a reply opening with `[`, split anywhere', () => {
  // The scrubber's tester (round 3, fence-bracket.mjs): split right after the `[`, the fence branch
  // decided "JSON" on the lone `[` and held the whole reply until the stream ended.
  const cases = [
    '```toml\n[server]\nport = 8080\n```\nThat config sets the port.',
    '```\n[1/2] Install the package first.\n```\nThen run it.',
    '[1/2] Install the package first.',
    '[1] Install the package first.',
    '[{"a": 1}] is an example.',
    '</think>\n```\n[1/2] Install first.\n```\nDone.',
  ];
  it.each(cases)('%j is shown before the stream ends, as the batch parse reads it', (text) => {
    for (const leadingReasoning of [false, true]) {
      const options = { tools: [get], leadingReasoning };
      const expected = batch(text, options);
      expect(expected.calls).toEqual([]);
      const at = text.indexOf('[') + 1;
      for (const fragments of [...splits(text), [text.slice(0, at), text.slice(at)]]) {
        const got = stream(fragments, options);
        expect(got.shown).toBe(expected.text);
        expect(got.text).toBe(expected.text);
      }
    }
  });

  it('still holds an array of calls, and one whose end may still be a turn token or the closing fence', () => {
    for (const text of [
      `[${call}]`,
      `[1, ${call}]<|eot_id|>`,
      `\`\`\`json\n[${call}]\n\`\`\``,
      `\`\`\`\n[${call}]<|eot_id|>`,
    ]) {
      const options = { tools: [get] };
      const expected = batch(text, options);
      expect(expected.calls.map((found) => found.source)).toEqual(['bare_json']);
      for (const fragments of splits(text)) {
        const got = stream(fragments, options);
        expect(got.shown).toBe('');
        expect(got.text).toBe(expected.text);
        expect(got.calls).toEqual(['get:bare_json']);
      }
    }
  });
});

describe('property: a reply opening with a `[` no call array starts so', () => {
  it('is shown before the stream ends, at most 64 characters late, however it is split', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          '[1/2] ',
          '[note] ',
          '[1] ',
          '["a"] ',
          '[ x',
          '[-] ',
          '```toml\n[server]\n',
          '~~~\n[ 1/2]',
          '  \n[',
        ),
        fc.array(fc.constantFrom(...'abc xyz.,:\n'), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        (opening, body, sizes, leadingReasoning) => {
          // A long tail: other grammars may hold a few characters after a `]` (bounded), the guard nothing.
          const text = `${opening}${body.join('')}${' and then more words follow.'.repeat(4)}`;
          const fragments: string[] = [];
          let at = 0;
          for (let index = 0; at < text.length; index++) {
            const size = sizes[index % sizes.length] ?? 1;
            fragments.push(text.slice(at, at + size));
            at += size;
          }
          const options = { tools: [get], leadingReasoning };
          const expected = batch(text, options);
          const got = stream(fragments, options);
          expect(expected.text.startsWith(got.shown)).toBe(true);
          expect(expected.text.length - got.shown.length).toBeLessThanOrEqual(64);
          expect(got.text).toBe(expected.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('JSON in prose the batch reader rejects', () => {
  // The scrubber's tester (round 3, escjson.mjs): the guard read `01` and `tru` loosely as values and
  // looked for the tool name literally, so it released the outer object while the batch parse broke
  // at the bad value, resumed after it and read the inner call (its name escaped: `\u0067et`).
  const inner = '{"name": "\\u0067et", "arguments": {"city": "Oslo"}}';
  const cases = [
    `Result: {"x": 01, "y": ${inner}} done`,
    `Result: {"x": tru, "y": ${inner}} done`,
    `Result: {"x": nul, "y": ${inner}} done`,
    `Result: {"x": 1., "y": ${inner}} done`,
    `Result: {"x": 1e+, "y": ${inner}} done`,
    `Result: {"x": -, "y": ${inner}} done`,
    `Result: [01, ${inner}] done`,
    `Result: ${inner} done`,
    `Result: {"name": "get", "\\u0061rguments": {"city": "Oslo"}} done`,
  ];
  it.each(cases)('%j: the stream reads the call the batch parse reads, and never shows it', (text) => {
    const options = { tools: [get] };
    const expected = batch(text, options);
    expect(expected.calls.map((found) => `${found.name}:${found.source}`)).toEqual(['get:bare_json']);
    for (const fragments of splits(text)) {
      const got = stream(fragments, options);
      expect(expected.text.startsWith(got.shown)).toBe(true);
      expect(got.text).toBe(expected.text);
      expect(got.calls).toEqual(['get:bare_json']);
    }
  });

  it('releases an object that is no call once JSON.parse would reject it or it names no offered tool', () => {
    for (const text of [
      'See {"name": "get", "arguments": {"city": 01}} and more words follow here.',
      'See {"name": "\\u0067ot", "arguments": {}} and more words follow here.',
    ]) {
      const options = { tools: [get] };
      expect(batch(text, options).calls).toEqual([]);
      const got = stream([...text], options);
      expect(got.shown).toBe(batch(text, options).text);
    }
  });
});

describe('work', () => {
  // A one-character feed must examine only the new character (the tester's 1-char scale cases grew
  // from 0.36 s to 4.7 s and 18.8 s when the held text was re-read on every feed).
  const texts: Array<[string, (n: number) => string]> = [
    ['an escaped quote in an open call', (n) => `Use {"name": "get", "arguments": {"q": "${'a\\"b '.repeat(n / 5)}`],
    ['quotes after a brace', (n) => `Use { ${'a"b '.repeat(n / 4)}`],
    ['nested objects that break', (n) => `Note: ${'{"a": '.repeat(n / 12)}x ${'{"b": 1} '.repeat(n / 18)}`],
    ['many small broken objects', (n) => `Note: ${'{"a" x '.repeat(n / 7)}`],
  ];
  it.each(texts)('%s: characters examined grow linearly with the text (n and 2n)', (_, make) => {
    const examined = (n: number): number => {
      const guard = createWholeResponseGuard(createToolKnowledge([get]));
      if (guard === undefined) throw new Error('the guard is on with bare JSON allowed');
      const text = make(n);
      let fed = '';
      for (const char of text) {
        fed += char;
        guard.feed(char, () => fed, { text: char, calls: [], diagnostics: [] });
      }
      return guard.examined;
    };
    const small = examined(20_000);
    const large = examined(40_000);
    expect(small).toBeGreaterThan(10_000);
    expect(large).toBeLessThanOrEqual(2.2 * small);
    expect(large).toBeLessThanOrEqual(2 * 40_000);
  });
});

describe('work reading the start', () => {
  // The scrubber's tester (round 3, time2.mjs): 1-character feeds of 200K spaces and `hi` took 95 s,
  // the start reading trimming everything fed so far on each feed. Now each character is read once.
  const texts: Array<[string, (n: number) => string]> = [
    ['spaces', (n) => `${' '.repeat(n)}hi`],
    ['newlines', (n) => `${'\n'.repeat(n)}hi`],
    ['no-break spaces', (n) => `${'\u00a0'.repeat(n)}hi`],
    ['a bracket and spaces', (n) => `[${' '.repeat(n)}hi`],
    ['a fence and newlines', (n) => `\`\`\`\n${'\n'.repeat(n)}hi`],
    ['a long fence line', (n) => `\`\`\`${'j'.repeat(n)}\nhi`],
    ['a closer and spaces', (n) => `r</think>${' '.repeat(n)}hi`],
    ['a long array of numbers', (n) => `[${'1, '.repeat(n / 3)}`],
  ];
  it.each(texts)('%s fed a character at a time: each character is examined once', (_, make) => {
    const examined = (n: number): number => {
      // No tools: the JSON-in-prose reading is off, so only the start readings count.
      const guard = createWholeResponseGuard(createToolKnowledge(undefined, { leadingReasoning: true }));
      if (guard === undefined) throw new Error('the guard is on with bare JSON allowed');
      const text = make(n);
      let fed = '';
      for (const char of text) {
        fed += char;
        guard.feed(char, () => fed, { text: char, calls: [], diagnostics: [] });
      }
      return guard.examined;
    };
    const small = examined(20_000);
    const large = examined(40_000);
    expect(small).toBeGreaterThanOrEqual(19_990);
    expect(large).toBeLessThanOrEqual(2 * (40_000 + 12));
  });
});

describe('property: whole-response shapes', () => {
  const bodies = [call, `[${call}]`, '{"name": "nope", "arguments": {}}', '{"city": "Oslo"}', 'no json here'];
  const befores = ['', '  ', '<think>hm</think>', '</think>', 'Sure.\n', 'x {', '"quoted" '];
  const wraps = ['', '```json\n', '````tool_call\n', '~~~\n', '<|python_tag|>'];
  it('for any split, the stream equals the batch reading and releases each call once', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...befores),
        fc.constantFrom(...wraps),
        fc.constantFrom(...bodies),
        fc.constantFrom('', '\n```', '\n````', ' done'),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 }),
        (before, wrap, body, after, leadingReasoning, sizes) => {
          const text = before + wrap + body + after;
          const fragments: string[] = [];
          let at = 0;
          for (let index = 0; at < text.length; index++) {
            const size = sizes[index % sizes.length] ?? 1;
            fragments.push(text.slice(at, at + size));
            at += size;
          }
          const options = { tools: [get], leadingReasoning };
          const expected = batch(text, options);
          const got = stream(fragments, options);
          expect(got.text).toBe(expected.text);
          expect(expected.text.startsWith(got.shown)).toBe(true);
          expect(got.calls).toEqual(expected.calls.map((found) => `${found.name}:${found.source}`));
        },
      ),
      { numRuns: 400 },
    );
  });
});
