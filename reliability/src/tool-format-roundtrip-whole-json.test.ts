import { createStreamScrubber, parseToolCalls, type ToolSchema } from '@tiny/llm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

/**
 * Stream vs batch for the whole-response JSON grammars (ui-r2 a7/h3): a call written as the whole
 * reply, as Llama's `<|python_tag|>{…}<|eom_id|>`, or as a JSON object inside prose (Llama 3.x JSON
 * tool prompts, vLLM's llama3_json parser). For any split, the scrubber's output equals the batch
 * parse's narrative, and no prefix of it ever shows a value of a call the batch parse reads.
 */
const RUNS = Number(process.env.TOOL_FORMAT_RUNS ?? propertyRuns(200));

const login: ToolSchema = {
  name: 'login',
  description: 'Logs in.',
  parameters: { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string' } } },
};

const secret = fc.stringMatching(/^[A-Za-z0-9]{8,16}$/).map((value) => `pw-${value}`);
const prose = fc.stringMatching(/^[A-Za-z][A-Za-z ,.]{0,24}[A-Za-z.]$/);
const form = fc.constantFrom('whole', 'padded', 'python_tag', 'python_tag_after_prose', 'in_prose', 'fenced');

function write(kind: string, password: string, before: string, after: string): string {
  const call = JSON.stringify({ name: 'login', arguments: { user: 'x', password } });
  const llama = JSON.stringify({ name: 'login', parameters: { user: 'x', password } });
  switch (kind) {
    case 'whole':
      return call;
    case 'padded':
      return `\n  ${call}\n`;
    case 'python_tag':
      return `<|python_tag|>${llama}<|eom_id|>`;
    case 'python_tag_after_prose':
      return `${before} <|python_tag|>${llama}<|eom_id|>`;
    case 'in_prose':
      return `${before} ${llama} ${after}`;
    default:
      return `\`\`\`json\n${call}\n\`\`\``;
  }
}

describe('whole-response JSON calls in a stream', () => {
  it('the scrubber agrees with the batch parse and never shows a value of a call it reads, for any split', () => {
    fc.assert(
      fc.property(
        form,
        secret,
        prose,
        prose,
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 40 }),
        (kind, password, before, after, sizes) => {
          const text = write(kind, password, before, after);
          const batch = parseToolCalls(text, { tools: [login] });
          expect(batch.calls.map((call) => call.name)).toEqual(['login']);
          const scrubber = createStreamScrubber({ tools: [login] });
          let shown = '';
          for (let at = 0, step = 0; at < text.length; step += 1) {
            const size = sizes[step % sizes.length] ?? 1;
            shown += scrubber.feed(text.slice(at, at + size)).text;
            expect(shown).not.toContain(password);
            at += size;
          }
          shown += scrubber.flush().text;
          expect(shown).not.toContain(password);
          expect(shown).toBe(batch.text);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('JSON that is not a call is released once it closes, before the stream ends', () => {
    fc.assert(
      fc.property(prose, fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.integer()), (before, value) => {
        const scrubber = createStreamScrubber({ tools: [login] });
        const json = JSON.stringify(value);
        const shown = scrubber.feed(`${before} ${json}`).text + scrubber.feed(' and').text;
        expect(shown.startsWith(`${before} ${json}`)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
