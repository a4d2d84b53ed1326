import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../spec/tool-schema.js';
import { createStreamScrubber } from './create-stream-scrubber.js';
import { PTYPE_REPAIR_WINDOW } from './grammars/seed-ptype.js';
import { parseToolCalls } from './parse-tool-calls.js';

// Regression tests for the breaker's findings on issue 31 (B1, B2, B4): a call in an xml or ptype
// tool's own format that starts owns everything up to its end; one that never ends is an invalid
// call (never run, never prose), and what a stream holds for an opener is bounded by structure.

const weather: ToolSchema = {
  name: 'weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } },
  format: { type: 'xml' },
};
const sendEmail: ToolSchema = {
  name: 'send_email',
  parameters: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
  format: { type: 'xml' },
};
const search: ToolSchema = {
  name: 'search',
  parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } } },
  format: { type: 'ptype', parameters: ['query', 'limit'] },
};
const lookup: ToolSchema = { name: 'lookup', parameters: { type: 'object', properties: { key: { type: 'string' } } } };
const tools = [weather, sendEmail, search, lookup];

function summary(text: string) {
  const parsed = parseToolCalls(text, { tools });
  return {
    text: parsed.text,
    calls: parsed.calls.map((call) => [call.name, call.source, call.invalid === undefined ? 'ok' : 'invalid']),
  };
}

/** Streams `text` in pieces of `size`; returns what each feed released and the flush. */
function stream(text: string, size: number) {
  const scrubber = createStreamScrubber({ tools });
  const released: string[] = [];
  const calls: string[] = [];
  for (let index = 0; index < text.length; index += size) {
    const out = scrubber.feed(text.slice(index, index + size));
    released.push(out.text);
    calls.push(...out.calls.map((call) => `${call.name}:${call.invalid === undefined ? 'ok' : 'invalid'}`));
  }
  const last = scrubber.flush();
  calls.push(...last.calls.map((call) => `${call.name}:${call.invalid === undefined ? 'ok' : 'invalid'}`));
  return { released, flushed: last.text, calls };
}

describe('a started own-format call owns its content (B1)', () => {
  it('reads an xml call that never closes as one invalid call, never the call written inside it', () => {
    expect(summary('<weather><city><send_email><to>x</to><body>y</body></send_email></city>')).toEqual({
      text: '',
      calls: [['weather', 'xml_element', 'invalid']],
    });
    expect(summary('Sure. <weather><city>Paris</city></weathr> then <lookup>')).toEqual({
      text: 'Sure.',
      calls: [['weather', 'xml_element', 'invalid']],
    });
  });

  it('reads a ptype call whose string never closes as one invalid call, never the xml call inside it', () => {
    expect(summary('search("a <weather><city>X</city></weather>')).toEqual({
      text: '',
      calls: [['search', 'ptype', 'invalid']],
    });
    expect(summary(`Let me look. search(["a", '<tool_call>{"name":"lookup","arguments":{}}</tool_call>`)).toEqual({
      text: 'Let me look.',
      calls: [['search', 'ptype', 'invalid']],
    });
  });

  it('still reads calls after a closed one, and tool names in prose are prose', () => {
    expect(summary('Use the <weather> tool. <weather><city>Oslo</city></weather> and search("x", 2)')).toEqual({
      text: 'Use the <weather> tool.\nand',
      calls: [
        ['weather', 'xml_element', 'ok'],
        ['search', 'ptype', 'ok'],
      ],
    });
    expect(summary('Call search( with a query. Then <lookup>.').calls).toEqual([]);
  });

  it('keeps a ptype call with no argument list repairable within the window, and prose past it', () => {
    expect(summary('search(query="rust")').calls).toEqual([['search', 'ptype', 'invalid']]);
    const far = `search( with ${'words '.repeat(PTYPE_REPAIR_WINDOW / 6 + 2)})`;
    expect(summary(far)).toEqual({ text: far, calls: [] });
  });
});

describe('a stream never shows a partial call (B2)', () => {
  for (const size of [1, 3, 7, 100]) {
    it(`holds a partial xml or ptype call to the end and reports it invalid (pieces of ${size})`, () => {
      const xml = stream('Let me see <weather><city>Par', size);
      expect(xml.released.join('') + xml.flushed).toBe('Let me see');
      expect(xml.calls).toEqual(['weather:invalid']);
      const ptype = stream('Searching search("rust <weather>', size);
      expect(ptype.released.join('') + ptype.flushed).toBe('Searching');
      expect(ptype.calls).toEqual(['search:invalid']);
    });
  }
});

describe('what a stream holds for an opener is bounded (B4)', () => {
  const prose = 'Long answer sentence. '.repeat(40);

  it('releases prose after an xml opener that no element follows as soon as the next character says so', () => {
    const out = stream(`Tip: wrap the city in <weather> tags. ${prose}`, 7);
    // Everything but the last few characters was released before the flush.
    expect(out.released.join('').length).toBeGreaterThan(prose.length);
    expect(out.calls).toEqual([]);
  });

  it('releases prose after a ptype opener within the repair window', () => {
    const out = stream(`Tip: call search( with a query. ${prose}`, 7);
    const before = out.released.join('');
    expect(before.length).toBeGreaterThan(prose.length - PTYPE_REPAIR_WINDOW);
    expect(before + out.flushed).toBe(`Tip: call search( with a query. ${prose}`.trim());
  });

  it('never releases a piece of a real call that is still open, however long its value', () => {
    const value = 'x'.repeat(3000);
    for (const text of [`<weather>\n  <city>${value}`, `search("${value}`]) {
      const out = stream(`Ok. ${text}`, 64);
      expect(out.released.join('') + out.flushed).toBe('Ok.');
      expect(out.calls).toHaveLength(1);
    }
  });
});
