import { describe, expect, it } from 'vitest';
import { pathologicalInputs, pathologicalTools } from './__fixtures__/pathological-inputs.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { parseToolCalls } from './parse-tool-calls.js';
import type { ParsedCall } from './parse-types.js';

function tool(name: string) {
  return { name, description: '', parameters: { type: 'object' } };
}

function run(
  fragments: readonly string[],
  tools?: Parameters<typeof createStreamScrubber>[0],
): {
  steps: string[];
  text: string;
  calls: ParsedCall[];
} {
  const scrubber = createStreamScrubber(tools);
  const steps: string[] = [];
  const calls: ParsedCall[] = [];
  for (const fragment of fragments) {
    const step = scrubber.feed(fragment);
    steps.push(step.text);
    calls.push(...step.calls);
  }
  const last = scrubber.flush();
  steps.push(last.text);
  calls.push(...last.calls);
  return { steps, text: steps.join(''), calls };
}

describe('createStreamScrubber', () => {
  it('passes plain text through, holding only trailing whitespace', () => {
    const result = run(['hello ', 'world', ' done']);
    expect(result.steps).toEqual(['hello', ' world', ' done', '']);
    expect(result.text).toBe('hello world done');
  });

  it('releases a completed call as soon as its block closes, exactly once', () => {
    const scrubber = createStreamScrubber({ leadingReasoning: false });
    expect(scrubber.feed('answer: <tool_').text).toBe('answer:');
    expect(scrubber.feed('call>{"name":"x","arguments":').calls).toEqual([]);
    const closed = scrubber.feed('{"a":1}}</tool_call> end');
    expect(closed.calls).toEqual([{ name: 'x', arguments: { a: 1 }, source: 'tagged_json' }]);
    expect(closed.text).toBe('\nend');
    expect(scrubber.flush()).toEqual({ text: '', calls: [], diagnostics: [] });
  });

  it.each([
    ['<tool_ca', 'll>{"name":"a","arguments":{}}</tool_call>'],
    ['<TOOL_CA', 'LL>{"name":"a","arguments":{}}</TOOL_CALL>'],
    ['<', 'tool_call>{"name":"a","arguments":{}}</tool_call>'],
    ['<|tool_call', '|>{"name":"a","arguments":{}}<|tool_call|>'],
    ['<tool_call id="c', '1">{"name":"a","arguments":{}}</tool_call>'],
    ['<｜tool▁', 'call▁begin｜>a<｜tool▁sep｜>{}<｜tool▁call▁end｜>'],
    ['<｜tool_', 'call_begin｜>a<｜tool_sep｜>{}<｜tool_call_end｜>'],
    ['<|tool▁', 'call▁begin|>a<|tool▁sep|>{}<|tool▁call▁end|>'],
    ['<|tool_call_be', 'gin|>functions.a:0<|tool_call_argument_begin|>{}<|tool_call_end|>'],
    ['<｜DS', 'ML｜invoke name="a">{}</｜DSML｜invoke>'],
    ['<atem:invoke name="a"', '><atem:parameter name="k">v</atem:parameter></atem:invoke>'],
    ['<function=a', '><parameter=k>v</parameter></function>'],
    ['[TOOL_CALLS', ']a[ARGS]{}'],
    ['<|chan', 'nel|>commentary to=functions.a<|message|>{}<|call|>'],
    ['<|start|>assistant', '<|channel|>commentary to=functions.a<|message|>{}<|call|>'],
    ['```tool_ca', 'll\n{"name":"a","arguments":{}}\n```'],
  ])('never shows the partial opener %j', (head, tail) => {
    const scrubber = createStreamScrubber();
    const first = scrubber.feed(`Sure. ${head}`);
    expect(first.text).toBe('Sure.');
    const second = scrubber.feed(tail);
    const last = scrubber.flush();
    expect(second.text + last.text).toBe('');
    expect([...first.calls, ...second.calls, ...last.calls].map((call) => call.name)).toEqual(['a']);
  });

  it('releases a dangling opener as text when the stream ends', () => {
    const result = run(['  a <tool_call ']);
    expect(result.steps).toEqual(['a', ' <tool_call']);
  });

  // A started call owns everything to its end: a body cut off before its closer is never released
  // as text (the sensitive value in it included); it is one invalid, partial call.
  it.each([
    ['tagged JSON', 'x <tool_call>{"name":"a","arguments":{"pin":"hunter2-secret', 'a'],
    ['P-Format', 'x <tool_call>a[0|hunter2-secret', 'a'],
    ['python', 'x <tool_call>a(pin="hunter2-secret', 'a'],
    ['typescript', 'x <tool_call>a({pin: "hunter2-secret', 'a'],
    ['a sentinel token', 'x <｜tool▁call▁begin｜>{"name":"a","arguments":{"pin":"hunter2-secret', 'a'],
  ])('never releases a %s call cut off before its closer, in any split', (_, text, name) => {
    for (const size of [1, 3, text.length]) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
      const result = run(pieces);
      expect(result.text).toBe('x');
      expect(result.calls).toEqual([expect.objectContaining({ name, invalid: expect.any(String), partial: true })]);
    }
  });

  it('holds a response that may be one JSON call and reads it at the end; never streams GLM lines', () => {
    const bare = run(['{"name":"a",', '"arguments":{}}']);
    expect(bare.steps).toEqual(['', '', '']);
    expect(bare.calls).toEqual([{ name: 'a', arguments: {}, source: 'bare_json' }]);
    expect(run(['shell/command>ls']).calls).toEqual([]);
  });

  // ui-r2 a7/h3: JSON calls the batch parse runs (whole reply, Llama `<|python_tag|>`, inside prose)
  // never reach the stream, for any split; JSON that is not a call is released once it closes.
  it('never shows JSON markup that the batch parse reads as a call', () => {
    const tools = { tools: [tool('login')] };
    const secret = 'pinVAL-55aa77bb';
    const call = JSON.stringify({ name: 'login', arguments: { user: 'x', password: secret } });
    const llama = JSON.stringify({ name: 'login', parameters: { user: 'x', password: secret } });
    for (const text of [
      call,
      `  ${call}`,
      `Sure. ${call}`,
      `<|python_tag|>${llama}<|eom_id|>`,
      `Sure. <|python_tag|>${llama}<|eom_id|>`,
      '```json\n' + call + '\n```',
    ]) {
      const batch = parseToolCalls(text, tools);
      expect(batch.calls.map((c) => c.name)).toEqual(['login']);
      for (const size of [1, 2, 5, 1000]) {
        const fragments = text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];
        const streamed = run(fragments, tools);
        for (let index = 1; index <= streamed.steps.length; index++) {
          expect(streamed.steps.slice(0, index).join('')).not.toContain(secret);
        }
        expect(streamed.text).toBe(batch.text);
      }
    }
    const answer = run(['Use {"a": 1}', ' and more'], tools);
    expect(answer.steps[0]).toBe('Use {"a": 1}');
    expect(answer.text).toBe('Use {"a": 1} and more');
  });

  it('keeps a fenced example intact even when the fence arrives in pieces', () => {
    const result = run([
      'example:\n``',
      '`bash\necho <tool_call>{"name":"x","arguments":{}}</tool_call>\n``',
      '`\nafter',
    ]);
    expect(result.calls).toEqual([]);
    expect(result.text).toBe('example:\n```bash\necho <tool_call>{"name":"x","arguments":{}}</tool_call>\n```\nafter');
  });

  it('repairs names against the offered tools', () => {
    const tools = [{ name: 'read_file', description: '', parameters: { type: 'object' } }];
    const result = run(['<tool_call>{"name":"functions.read_file","arguments":{}}</tool_call>'], { tools });
    expect(result.calls.map((call) => call.name)).toEqual(['read_file']);
  });

  it('holds a doubled block until its extra closer has arrived', () => {
    const result = run([
      'before <tool_call>\n<tool_call>\n{"name":"x","arguments":{}}\n</tool_call>\n</tool_',
      'call> after',
    ]);
    expect(result.text).toBe('before\nafter');
    expect(result.calls).toHaveLength(1);
  });

  it('can be reused after flush', () => {
    const scrubber = createStreamScrubber();
    scrubber.feed('<think>x</think>```python\nunclosed');
    scrubber.flush();
    const next = scrubber.feed('<think>y</think><tool_call>{"name":"a","arguments":{}}</tool_call>');
    expect(next.calls.map((call) => call.name)).toEqual(['a']);
    scrubber.flush();
    // A fresh stream is undecided again: its call waits for a reasoning token or the end.
    expect(scrubber.feed('<tool_call>{"name":"b","arguments":{}}</tool_call>').calls).toEqual([]);
    expect(scrubber.flush().calls.map((call) => call.name)).toEqual(['b']);
  });

  describe('a leading </think> without an opener (the prompt opened the think block)', () => {
    const call = '<tool_call>{"name":"search","arguments":{"q":"draft"}}</tool_call>';

    it('holds a call found before any reasoning token, and a later </think> makes it reasoning', () => {
      const scrubber = createStreamScrubber();
      const first = scrubber.feed(`Maybe ${call} would do.`);
      expect(first.calls).toEqual([]);
      expect(first.text).toBe('Maybe');
      const closed = scrubber.feed('</think>\nDone.');
      expect(closed.calls).toEqual([]);
      const rest = scrubber.flush();
      expect(rest.calls).toEqual([]);
      expect(first.text + closed.text + rest.text).toBe(`Maybe ${call} would do.</think>\nDone.`);
    });

    it('releases the held call at the end when no closer came', () => {
      const scrubber = createStreamScrubber();
      expect(scrubber.feed(`Let me look. ${call}`).calls).toEqual([]);
      expect(scrubber.flush().calls).toEqual([{ name: 'search', arguments: { q: 'draft' }, source: 'tagged_json' }]);
    });

    it('releases calls at once after an opener decided the start', () => {
      const scrubber = createStreamScrubber();
      expect(scrubber.feed(`<think>plan</think>${call}`).calls.map((entry) => entry.name)).toEqual(['search']);
    });

    it('keeps the batch reading: text before the first closer is reasoning, after it calls count', () => {
      const text = `${call}</think>\n<tool_call>{"name":"get_weather","arguments":{"city":"Oslo"}}</tool_call>`;
      const parsed = parseToolCalls(text, { tools: [tool('search'), tool('get_weather')] });
      expect(parsed.calls.map((entry) => entry.name)).toEqual(['get_weather']);
      expect(parsed.text).toBe(`${call}</think>`);
      const off = parseToolCalls(text, { tools: [tool('search'), tool('get_weather')], leadingReasoning: false });
      expect(off.calls.map((entry) => entry.name)).toEqual(['search', 'get_weather']);
    });
  });

  it('stays fast when one huge block arrives a character at a time', () => {
    const body = `<tool_call>{"name":"write","arguments":{"content":"${'x'.repeat(200_000)}"}}</tool_call>done`;
    const scrubber = createStreamScrubber();
    const calls: ParsedCall[] = [];
    let text = '';
    for (let index = 0; index < body.length; index += 1) {
      const step = scrubber.feed(body[index] ?? '');
      calls.push(...step.calls);
      text += step.text;
    }
    const last = scrubber.flush();
    calls.push(...last.calls);
    text += last.text;
    expect(calls).toHaveLength(1);
    expect(text).toBe('done');
  });

  describe('gives the same output for any split as for one feed (differential)', () => {
    // Texts that exercise the paths a split can reach: plain prose released without a scan, words
    // that may grow into a p-type call, partial openers, long held blocks, fences and every grammar.
    const texts: string[] = [
      'The report shows growth; see https://example.com/q3. Next: (1) review, (2) ship [draft]. ',
      'Let me search for it. search("rust agents", 5) and then seas, sea, se s ( ) searching(',
      'Sure. <invoke name="read"><parameter name="path">a.txt</parameter></invoke>\nThen more.',
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>lookup<｜tool▁sep｜>{"id": 7}<｜tool▁call▁end｜><｜tool▁calls▁end｜> ok',
      '<|start|>assistant<|channel|>commentary to=functions.lookup<|message|>{"id":1}<|call|> done',
      'x [TOOL_CALLS]lookup[ARGS]{"id": [1, {"a": "}"}]} tail [TOOL_CALL',
      '<|START_ACTION|>[{"tool_name": "lookup", "parameters": {"id": 2}}]<|END_ACTION|> y',
      `a <tool_call>\n{"name": "lookup", "arguments": {"note": "${'long '.repeat(120)}"}}\n</tool_call>\nb`,
      'code:\n```ts\nconst a = `<tool_call>{"name":"x","arguments":{}}</tool_call>`;\n```\n```tool_call\n{"name":"lookup","arguments":{"id":3}}\n```\nend',
      '<weather><city>Oslo</city></weather> and <weath and <tool_ca and <tool_call>{"name":"lookup"',
      'x <tool_call>\n<tool_call>\n{"name":"lookup","arguments":{}}\n</tool_call>\n</tool_call> y  \n\n  z   ',
      ...pathologicalInputs.map(([, make]) => make(600)),
    ];

    /** A seeded PRNG (mulberry32), so a failure names a reproducible seed. */
    function random(seed: number): () => number {
      let state = seed >>> 0;
      return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
        mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
        return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
      };
    }

    function split(text: string, next: () => number): string[] {
      const pieces: string[] = [];
      for (let index = 0; index < text.length; ) {
        const roll = next();
        const size = roll < 0.5 ? 1 : roll < 0.8 ? 1 + Math.floor(next() * 4) : 1 + Math.floor(next() * 80);
        pieces.push(text.slice(index, index + size));
        index += size;
      }
      return pieces;
    }

    it.each([
      ['no tools', undefined],
      ['every grammar (p-type and xml tools)', { tools: pathologicalTools }],
    ])('%s', (_label, options) => {
      for (const [position, text] of texts.entries()) {
        const whole = run([text], options);
        for (let seed = 1; seed <= 40; seed++) {
          const pieces = split(text, random(seed * 1000 + position));
          const streamed = run(pieces, options);
          const context = `text ${position}, seed ${seed * 1000 + position}`;
          expect(streamed.text, context).toBe(whole.text);
          expect(streamed.calls, context).toEqual(whole.calls);
        }
        const single = run([...text], options);
        expect(single.text, `text ${position}, one character at a time`).toBe(whole.text);
        expect(single.calls, `text ${position}, one character at a time`).toEqual(whole.calls);
      }
    });
  });

  describe('scan breaks found by the round-2 tester (/tmp/breakers/scrubber-r2)', () => {
    function agreeing(text: string, options?: Parameters<typeof createStreamScrubber>[0]) {
      const whole = run([text], options);
      // Model-like tokens: special tokens whole, words otherwise; then one character at a time.
      const tokens = text.match(/<\|[a-z_]+\|>|\s+|[A-Za-z]+|[^\sA-Za-z]/g) ?? [];
      for (const pieces of [tokens, [...text]]) {
        const streamed = run(pieces, options);
        expect(streamed.text).toBe(whole.text);
        expect(streamed.calls).toEqual(whole.calls);
      }
      return whole;
    }

    it('a call quoted in reasoning before the real section does not release the section opener (old-kimi-leak)', () => {
      const text =
        '<think>Kimi uses `<|tool_call_begin|>functions.x:0<|tool_call_argument_begin|>{}<|tool_call_end|>` blocks; here goes.\n' +
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>';
      const whole = agreeing(text);
      expect(whole.text).not.toContain('<|tool_calls_section_begin|>');
      expect(whole.calls.map((call) => call.name)).toEqual(['get']);
    });

    it('a region opened inside an earlier released call protects nothing in a later feed (min2)', () => {
      // `[THINK]` is written inside the Mistral call's arguments, so it opens no reasoning region:
      // the Harmony call after the Command call runs however the stream is split.
      const tagged = '<tool_call>{"name": "get", "arguments": {"city": "Rome"}}</tool_call>';
      const command = '<|START_ACTION|>[{"tool_name": "get", "parameters": {"city": "B"}}]<|END_ACTION|>';
      const harmony =
        '<|start|>assistant<|channel|>commentary to=functions.get <|constrain|>json<|message|>{"city":"A"}<|call|>';
      const text = `[TOOL_CALLS][THINK]${tagged}${command}${harmony}`;
      const options = { tools: [tool('get')] };
      const whole = agreeing(text, options);
      expect(whole.text).toBe('</tool_call>');
      expect(whole.calls.map((call) => call.source)).toEqual(['mistral', 'command_action', 'harmony']);
      // Cut right after the Command call: its scan releases both calls before the Harmony one arrives.
      const cut = text.indexOf(harmony);
      for (let at = cut - 1; at <= text.length; at++) {
        const streamed = run([text.slice(0, at), text.slice(at)], options);
        expect(streamed.text, `cut at ${at}`).toBe(whole.text);
        expect(streamed.calls, `cut at ${at}`).toEqual(whole.calls);
      }
    });

    it('a MiniMax call, a Harmony analysis channel naming XTML markers, then a real XTML call (case5)', () => {
      const xtml =
        '<|open|>tools<|sep|><|open|>call tool="get" index="0"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>';
      const minimax =
        ']<]minimax[>[<tool_call>]<]minimax[>[<invoke name="get">]<]minimax[>[<city>Paris]<]minimax[>[</city>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>';
      const text = `${minimax}<|channel|>analysis<|message|><|open|>tools<|sep|><start_function_call>[/THINK]\n]<]minimax[>[<tool_call><start_function_call>${xtml}<|end|>`;
      for (const options of [{ leadingReasoning: false }, {}]) {
        const whole = agreeing(text, options);
        expect(whole.text).not.toContain('<|open|>call');
        expect(whole.calls.map((call) => call.source)).toEqual(['invoke_xml', 'xtml']);
      }
    });

    it('p-type name( mentions in open reasoning hold a bounded tail, however many there are (lag5)', () => {
      const options = { tools: [{ ...tool('add'), format: { type: 'ptype' as const, parameters: ['a', 'b'] } }] };
      for (const lines of [10, 80]) {
        const text = `<think>\n${Array.from({ length: lines }, () => 'I could add( the numbers later on.').join('\n')}`;
        const whole = run([text], options);
        const scrubber = createStreamScrubber(options);
        let shown = '';
        let mostHeld = 0;
        for (const [index, character] of [...text].entries()) {
          shown += scrubber.feed(character).text;
          expect(whole.text.startsWith(shown)).toBe(true);
          mostHeld = Math.max(mostHeld, index + 1 - shown.length);
        }
        shown += scrubber.flush().text;
        expect(shown).toBe(whole.text);
        // The earliest mention still undecided is at most the p-type repair window (80) back.
        expect(mostHeld).toBeLessThan(160);
      }
    });
  });
});
