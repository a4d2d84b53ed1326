import { type Message, messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ToolPolicyMiddleware } from '../middleware/tool-policy-middleware.js';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '../testkit/index.js';
import { FilteredToolSet } from '../toolsets/filtered-tool-set.js';
import { PrefixedToolSet } from '../toolsets/prefixed-tool-set.js';
import { RenamedToolSet } from '../toolsets/renamed-tool-set.js';
import { toolSetFromTools } from '../toolsets/tool-set-from-tools.js';
import { AgentHarness } from './agent-harness.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];
const toolText = (messages: readonly Message[], id: string) =>
  messageText(messages.find((message) => message.role === 'tool' && message.toolCallId === id) as Message);

function integration(log: string[], names: string[], extra: Record<string, unknown> = {}) {
  return names.map((name) =>
    defineTool({
      name,
      description: `The ${name.replace(/_/g, ' ')} operation of the ticket system.`,
      parameters: Type.Object({ id: Type.String() }),
      policy: ToolPolicy.readOnly(),
      execute: ({ id }) => {
        log.push(`${name}:${id}`);
        return `${name} ${id}`;
      },
      ...extra,
    }),
  );
}

describe('toolsets in the loop', () => {
  it('offers a toolset through its adaptors: prefixed names run, renamed-away and filtered names do not', async () => {
    const log: string[] = [];
    const base = toolSetFromTools(integration(log, ['get_ticket', 'close_ticket', 'delete_ticket']));
    const set = new PrefixedToolSet(
      new RenamedToolSet(new FilteredToolSet(base, (tool) => tool.name !== 'delete_ticket'), {
        close_ticket: 'resolve_ticket',
      }),
      'jira_',
    );
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('jira_get_ticket', { id: '1' }, 'a'),
            scriptedToolCall('jira_resolve_ticket', { id: '2' }, 'b'),
            scriptedToolCall('jira_close_ticket', { id: '3' }, 'c'),
            scriptedToolCall('jira_delete_ticket', { id: '4' }, 'd'),
          ],
        },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model }).withToolSet(set).invoke({}, user('go'));
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['jira_get_ticket', 'jira_resolve_ticket']);
    expect(log).toEqual(['get_ticket:1', 'close_ticket:2']);
    expect(toolText(run.messages, 'c')).toMatch(/^unknown tool `jira_close_ticket`/);
    expect(toolText(run.messages, 'd')).toMatch(/^unknown tool `jira_delete_ticket`/);
    const filtered = eventsOfType(run.events, 'tools_filtered');
    expect(filtered.some((event) => event.excluded.includes('delete_ticket'))).toBe(true);
    expect(toolEventViolations(run.events)).toEqual([]);
  });
});

describe('deferred tool discovery in the loop', () => {
  it('sends direct tools plus the bridge, searches, promotes, and runs deferred tools through tool_call', async () => {
    const log: string[] = [];
    const direct = integration(log, ['get_weather']);
    const deferred = integration(log, ['create_invoice', 'refund_payment', 'list_customers', 'send_newsletter'], {
      exposure: 'deferred',
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('tool_search', { query: 'refund a payment' }, 's1')] },
        { toolCalls: [scriptedToolCall('tool_call', { name: 'refund_payment', arguments: '{"id":"p-9"}' }, 't1')] },
        { toolCalls: [scriptedToolCall('create_invoice', { id: 'i-1' }, 'n1'), scriptedToolCall('nope', {}, 'u1')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [...direct, ...deferred] }).invoke({}, user('refund p-9'));
    const firstTools = model.requests[0]?.tools?.map((tool) => tool.name);
    expect(firstTools).toEqual(['get_weather', 'tool_search', 'tool_call']);
    expect(toolText(run.messages, 's1')).toContain('refund_payment');
    expect(model.requests[1]?.tools?.map((tool) => tool.name)).toContain('refund_payment');
    expect(log).toEqual(['refund_payment:p-9', 'create_invoice:i-1']);
    expect(eventsOfType(run.events, 'tool_searched')[0]).toMatchObject({ callId: 's1', query: '' });
    expect(eventsOfType(run.events, 'tool_searched')[0]?.matched[0]).toBe('refund_payment');
    expect(eventsOfType(run.events, 'deferred_tool_call').map((event) => [event.toolName, event.via])).toEqual([
      ['refund_payment', 'tool_call'],
      ['create_invoice', 'name'],
    ]);
    expect(eventsOfType(run.events, 'tool_started').find((event) => event.callId === 't1')?.toolName).toBe(
      'refund_payment',
    );
    const unknown = toolText(run.messages, 'u1');
    expect(unknown).toContain('get_weather');
    expect(unknown).not.toContain('send_newsletter');
    expect(eventsOfType(run.events, 'tools_advertised')[0]).toMatchObject({ direct: ['get_weather'], deferred: 4 });
    expect(toolEventViolations(run.events)).toEqual([]);
  });

  it('lets policies see the real tool behind tool_call, and answers a malformed tool_call', async () => {
    const log: string[] = [];
    const risky = defineTool({
      name: 'wire_money',
      description: 'Wire money.',
      parameters: Type.Object({ id: Type.String() }),
      exposure: 'deferred',
      policy: ToolPolicy.classified().withSideEffects({ payment: true }),
      execute: () => {
        log.push('wired');
        return 'wired';
      },
    });
    const model = new ScriptedModel({
      steps: [
        {
          toolCalls: [
            scriptedToolCall('tool_call', { name: 'wire_money', arguments: { id: 'x' } }, 'w1'),
            scriptedToolCall('tool_call', { name: '', arguments: 5 }, 'w2'),
          ],
        },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [risky], middleware: [ToolPolicyMiddleware.strict()] }).invoke(
      {},
      user('go'),
    );
    expect(log).toEqual([]);
    expect(toolText(run.messages, 'w1')).toMatch(/not allowed by policy: payment tools are denied/);
    expect(run.messages.find((message) => message.role === 'tool' && message.toolCallId === 'w2')).toMatchObject({
      isError: true,
    });
  });

  it('turns discovery off on request: no bridge, deferred tools still callable by name', async () => {
    const log: string[] = [];
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('archive', { id: 'z' })] }, { content: 'ok' }],
    });
    await new AgentHarness({
      model,
      tools: integration(log, ['archive'], { exposure: 'deferred' }),
      discovery: { enabled: false },
    }).invoke({}, user('go'));
    expect(model.requests[0]?.tools).toBeUndefined();
    expect(log).toEqual(['archive:z']);
  });
});
