import { type AgentEvent, AgentHarness, REDACTED } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import type { Message } from '@tiny/llm';
import { defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from './code-mode-tool.js';

const PASSWORD = 'hunter2-Ω-pw';
const API_KEY = 'sk-host-7Hq9xZ';

const login = defineTool({
  name: 'login',
  description: 'Logs in.',
  parameters: Type.Object({ user: Type.String(), password: Type.String({ 'x-tiny-sensitive': true }) }),
  execute: ({ user, password }) => ({ user, echoed: password }),
});
const quote = defineTool({
  name: 'quote',
  description: 'Fetches a quote.',
  parameters: Type.Object({ symbol: Type.String(), apiKey: Type.String() }),
  injected: [{ name: 'apiKey', source: 'host' }],
  execute: ({ symbol, apiKey }) => {
    if (symbol === 'FAIL') throw new Error(`GET /q?key=${encodeURIComponent(apiKey)} failed`);
    return `quote for ${symbol} via ${apiKey}`;
  },
});

async function run(code: string, capture: boolean) {
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'p1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({
    model,
    tools: [codeModeTool({ tools: [login, quote] })],
    policy: { captureToolIo: capture, toolErrors: { kind: 'return_error' } },
  });
  const events: AgentEvent[] = [];
  const result = await harness.invoke({ hostValues: { apiKey: API_KEY } }, [{ role: 'user', content: 'go' }], {
    onEvent: (event) => events.push(event),
  });
  const toolRows = (result.messages as Message[]).filter((message) => message.role === 'tool');
  return { events, toolRows, requests: model.requests };
}

describe('code mode keeps sensitive and host values out of what leaves the program', () => {
  for (const capture of [false, true]) {
    it(`scrubs a nested call's sensitive argument from the run_code events and result (capture ${capture})`, async () => {
      const code = `const r = await login({ user: 'ada', password: '${PASSWORD}' }); console.log(r.echoed); return r;`;
      const { events, toolRows } = await run(code, capture);
      expect(JSON.stringify(events)).not.toContain(PASSWORD);
      expect(JSON.stringify(toolRows)).not.toContain(PASSWORD);
      expect(JSON.stringify(toolRows)).toContain(REDACTED);
      if (capture) {
        const started = events.find((event) => event.type === 'tool_started' && event.callId === 'p1');
        expect(started).toMatchObject({ input: { code: REDACTED } });
      }
    });

    it(`scrubs a host value a nested tool echoes from the program's output and errors (capture ${capture})`, async () => {
      const code = `const a = await quote({ symbol: 'ACME' }); let b; try { await quote({ symbol: 'FAIL' }); } catch (e) { b = String(e); } return [a, b];`;
      const { events, toolRows, requests } = await run(code, capture);
      for (const text of [JSON.stringify(events), JSON.stringify(toolRows), JSON.stringify(requests)]) {
        expect(text).not.toContain(API_KEY);
        expect(text).not.toContain(encodeURIComponent(API_KEY));
      }
      expect(JSON.stringify(toolRows)).toContain(`quote for ACME via ${REDACTED}`);
    });
  }
});
