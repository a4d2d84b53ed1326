import { it } from 'vitest';
import { loadCorpus, toolsOf } from './__fixtures__/load-corpus.js';
import { parseToolCalls } from './parse-tool-calls.js';

it('probe', () => {
  for (const entry of loadCorpus().filter((e) => e.id.startsWith(process.env.PROBE ?? 'long-tail'))) {
    const r = parseToolCalls(entry.input, { tools: toolsOf(entry) });
    console.log(
      entry.id,
      JSON.stringify(r.calls.map((c) => [c.name, c.arguments])),
      JSON.stringify(r.text),
      r.diagnostics.map((d) => d.kind).join(','),
    );
  }
});
