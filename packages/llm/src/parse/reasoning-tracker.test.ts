import { afterEach, describe, expect, it } from 'vitest';
import { parseToolCalls } from './parse-tool-calls.js';
import { findProtectedRegions } from './protected-regions.js';

/** A Kimi K2 call section (the real call tokens Kimi writes inside its reasoning). */
function kimiSection(name: string, args: Record<string, unknown>): string {
  return (
    '<|tool_calls_section_begin|><|tool_call_begin|>' +
    `functions.${name}:0<|tool_call_argument_begin|>${JSON.stringify(args)}<|tool_call_end|>` +
    '<|tool_calls_section_end|>'
  );
}

/**
 * The characters the string searches examine while `run` runs: `indexOf` from its start to the match
 * (or the end), `lastIndexOf` from its start back to the match (or the beginning). Work, not time:
 * a search whose length grows with the text shows here whatever the machine's load.
 */
function searchedCharacters(run: () => void): number {
  const indexOf = String.prototype.indexOf;
  const lastIndexOf = String.prototype.lastIndexOf;
  let examined = 0;
  String.prototype.indexOf = function (this: string, search: string, position?: number): number {
    const from = Math.max(0, Math.min(position ?? 0, this.length));
    const found = indexOf.call(this, search, from);
    examined += (found < 0 ? this.length : found) - from;
    return found;
  };
  String.prototype.lastIndexOf = function (this: string, search: string, position?: number): number {
    const from = Math.max(0, Math.min(position ?? this.length, this.length));
    const found = lastIndexOf.call(this, search, from);
    examined += from - Math.max(found, 0);
    return found;
  };
  try {
    run();
  } finally {
    String.prototype.indexOf = indexOf;
    String.prototype.lastIndexOf = lastIndexOf;
  }
  return examined;
}

describe('reasoning regions ended by call tokens', () => {
  const original = { indexOf: String.prototype.indexOf, lastIndexOf: String.prototype.lastIndexOf };
  afterEach(() => {
    String.prototype.indexOf = original.indexOf;
    String.prototype.lastIndexOf = original.lastIndexOf;
  });

  // The tester's repros (break A): many regions, each ended by a call token, searched backwards to
  // the start of the text (a line start) and forwards to its end (backticks, fences) per token.
  const repeated: Record<string, string> = {
    kimi: '<think>a<|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>',
    functionGemma: '<think>a<start_function_call>call:x ',
    kimiWithBackticksAfter: '<think>a<|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>``',
    kimiWithFencesAfter: '<think>a\n<|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>\n```\n',
    mentionsInSpans: '`<|tool_call_begin|>functions.get:0<|tool_call_argument_begin|>` <think>',
  };

  for (const [name, unit] of Object.entries(repeated)) {
    it(`searches a bounded number of characters per character of text (${name})`, () => {
      const work = (count: number) => searchedCharacters(() => findProtectedRegions(unit.repeat(count)));
      const small = work(1000);
      const large = work(2000);
      // Linear: twice the text, about twice the searching (a quadratic search quadruples it), and a
      // few characters searched per character of text (each absent token is searched for once).
      expect(large).toBeLessThan(2.2 * small);
      expect(large / (unit.length * 2000)).toBeLessThan(32);
    });
  }

  it('keeps whole-text parsing linear when every region ends at a call token', () => {
    for (const unit of [repeated.kimi ?? '', repeated.functionGemma ?? '']) {
      const work = (count: number) => searchedCharacters(() => parseToolCalls(unit.repeat(count)));
      expect(work(2000)).toBeLessThan(2.2 * work(1000));
    }
  });

  it('regions found in the many-regions repro still end at every call token', () => {
    const unit = repeated.kimi ?? '';
    const text = unit.repeat(50);
    const ranges = findProtectedRegions(text).ranges;
    expect(ranges).toHaveLength(50);
    expect(ranges.every(([start, end]) => text.slice(start, end) === '<think>a')).toBe(true);
  });
});

describe('a call token quoted in reasoning is a mention (break D)', () => {
  const section = kimiSection('rm', { path: '/' });
  const one = '<|tool_call_begin|>functions.rm:0<|tool_call_argument_begin|>{}<|tool_call_end|>';

  it('never runs a call quoted in a ~~~ or ``` block, however far the opener line is', () => {
    const filler = 'filler line that is long enough to push the fence out.\n'.repeat(4);
    for (const fence of ['```', '~~~', '````', '~~~~~', '```text', '~~~ kimi']) {
      const close = fence.replace(/[^`~]/g, '').trim();
      for (const between of ['', filler, `${'x'.repeat(500)}\n`]) {
        const text = `<think>Example:\n${fence}\n${between}${section}\n${close}\nSo I will not.</think>Done.`;
        const result = parseToolCalls(text);
        expect(result.calls, `${fence} ${between.length}`).toEqual([]);
        // The whole reasoning stays one region, ended by its closer.
        expect(findProtectedRegions(text).ranges[0]).toEqual([0, text.indexOf('</think>') + '</think>'.length]);
      }
    }
  });

  it('never takes a fence line with an info string for the closer of the block it is in', () => {
    // CommonMark: a closing fence has nothing but spaces after its run, so these lines are content.
    for (const [open, inner, close] of [
      ['~~~', '~~~tool_call', '~~~'],
      ['```', '``` kimi example', '```'],
      ['~~~', '~~~~ more', '~~~'],
    ]) {
      const text = `<think>Example:\n${open}\n${inner}\n${section}\n${close}\nSo I will not.</think>Done.`;
      expect(parseToolCalls(text).calls, inner).toEqual([]);
    }
  });

  it('never runs a call quoted in the second of several inline code spans', () => {
    const text = `<think>Forms: \`${one}\` and \`${one}\` are both fine.</think>Done.`;
    expect(parseToolCalls(text).calls).toEqual([]);
    // Many spans before the token, longer than any look-back window.
    const many = `<think>${'`a` '.repeat(40)}then \`${one}\` is quoted.</think>Done.`;
    expect(parseToolCalls(many).calls).toEqual([]);
    // An earlier span whose opening backtick is far before the token and its closing one near it
    // (a look-back window starting inside it counted two backticks: even, so not quoted).
    const straddled = `<think>See \`${'y'.repeat(80)}\` and \`${one}\`.</think>Done.`;
    expect(parseToolCalls(straddled).calls).toEqual([]);
    // The reasoning is one region to its closer (the token did not end it).
    for (const input of [text, many, straddled]) {
      expect(findProtectedRegions(input).ranges).toEqual([[0, input.indexOf('</think>') + '</think>'.length]]);
    }
    // A span that opened on an earlier line of the same paragraph.
    const crossing = `<think>Write \`x\nand ${one}\` like that.</think>Done.`;
    expect(parseToolCalls(crossing).calls).toEqual([]);
  });

  it('still ends the region at a real call after the quoted block and spans have closed', () => {
    const text = `<think>Example:\n~~~\n${section}\n~~~\nNow \`a\` and \`b\`, so:\n${kimiSection('get', { id: 1 })}`;
    expect(parseToolCalls(text).calls.map((call) => call.name)).toEqual(['get']);
    // After a blank line, a backtick left open before it no longer quotes anything.
    const open = `<think>A stray \` here.\n\n${kimiSection('get', { id: 2 })}`;
    expect(parseToolCalls(open).calls.map((call) => call.name)).toEqual(['get']);
  });

  it('judges a call token after a still-open backtick as a mention, in a stream as in the whole text', () => {
    // Read up to the token, the span is open: the token is quoted whether or not a closer follows.
    const text = `<think>A stray \` here, ${kimiSection('get', { id: 3 })} and more.`;
    expect(parseToolCalls(text).calls).toEqual([]);
  });
});
