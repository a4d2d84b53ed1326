import { readFileSync } from 'node:fs';
import { collectStreamSettled } from '@tiny/llm';
import { useLoopbackServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../create-anthropic.js';

// A server that answers a streamed request with one JSON body (a relay that ignores `stream`): the
// refused answer of __fixtures__/conformance/refusal.json (the Messages API's refusal stop reason).
const refused = (
  JSON.parse(readFileSync(new URL('../__fixtures__/conformance/refusal.json', import.meta.url), 'utf8')) as {
    exchanges: { response: { json?: unknown } }[];
  }
).exchanges[0]?.response.json;
const server = useLoopbackServer();

describe('a streamed request answered with one JSON body', () => {
  it('streams the refusal as a refusal_delta, as the whole answer has it', async () => {
    server.handle((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(refused)),
    );
    const model = createAnthropic({ baseURL: `${server.url()}/v1`, apiKey: 'sk-ant-whole' })('claude-sonnet-4-5');
    const whole = await model.doGenerate({ messages: [{ role: 'user', content: 'hi' }] });
    const result = await model.doStream({ messages: [{ role: 'user', content: 'hi' }] });
    const settled = await collectStreamSettled(result.stream);
    expect(whole.refusal).toContain('cyber harm');
    expect(settled.response.refusal).toBe(whole.refusal);
    expect(settled.response.finishReason).toBe(whole.finishReason);
  });
});
