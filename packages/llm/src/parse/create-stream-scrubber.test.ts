import { describe, expect, it } from 'vitest';
import { createStreamScrubber } from './create-stream-scrubber.js';
import type { ParsedCall } from './parse-types.js';

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
    const scrubber = createStreamScrubber();
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
    const unclosed = run(['x <tool_call>{"name":"a"']);
    expect(unclosed.text).toBe('x <tool_call>{"name":"a"');
    expect(unclosed.calls).toEqual([]);
  });

  it('does not stream bare JSON or GLM lines (they need the whole response)', () => {
    expect(run(['{"name":"a","arguments":{}}']).calls).toEqual([]);
    expect(run(['shell/command>ls']).calls).toEqual([]);
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
    scrubber.feed('```python\nunclosed');
    scrubber.flush();
    const next = scrubber.feed('<tool_call>{"name":"a","arguments":{}}</tool_call>');
    expect(next.calls.map((call) => call.name)).toEqual(['a']);
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
});
