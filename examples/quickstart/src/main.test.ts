import { AgentHarness } from '@tiny/harness';
import { eventsOfType, ScriptedModel } from '@tiny/harness/testkit';
import { describe, expect, it } from 'vitest';
import { demoScript } from './script.js';
import { createNoteTool, sendSms, weather } from './tools.js';

describe('quickstart demo', () => {
  it('recovers from an unknown tool and broken arguments, then answers', async () => {
    const outbox: string[] = [];
    const model = new ScriptedModel({ steps: demoScript });
    const harness = new AgentHarness({ model, tools: [weather, createNoteTool(outbox), sendSms] });
    const run = await harness.invoke({ hostValues: { apiKey: 'sk-test-secret' } }, [{ role: 'user', content: 'go' }]);
    expect(run.outcome).toBe('final');
    expect(eventsOfType(run.events, 'unknown_tool_call')[0]?.recovery).toBe('tool_error');
    expect(eventsOfType(run.events, 'invalid_tool_args')[0]?.recovery).toBe('repaired');
    expect(run.executedTools).toEqual(['weather', 'save_note', 'send_sms']);
    expect(outbox).toHaveLength(1);
    expect(JSON.stringify(model.requests)).not.toContain('sk-test-secret');
  });
});
