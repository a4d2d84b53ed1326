import { AgentHarness, type AgentMiddleware, type RunContext } from '@tiny/harness';
import { eventsOfType, ScriptedModel, scriptedToolCall, toolEventViolations } from '@tiny/harness/testkit';
import type { Message } from '@tiny/llm';
import { defineTool, ToolPolicy, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from './code-mode-tool.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];

function makeTools() {
  const executed: string[] = [];
  const add = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    outputSchema: Type.Object({ sum: Type.Number() }),
    execute: ({ a, b }) => {
      executed.push(`add:${a}+${b}`);
      return { sum: a + b };
    },
  });
  const greet = defineTool({
    name: 'greet',
    description: 'Greets a user.',
    parameters: Type.Object({ name: Type.String({ maxLength: 20 }) }),
    execute: ({ name }) => {
      executed.push(`greet:${name}`);
      return `hello ${name}`;
    },
  });
  return { add, greet, executed };
}

/** One model turn that sends `code` to run_code, then a final answer. */
async function runProgram(
  code: string,
  options: {
    tools?: Parameters<typeof codeModeTool>[0];
    harness?: object;
    invoke?: object;
    context?: RunContext;
  } = {},
) {
  const { add, greet, executed } = makeTools();
  const tool = codeModeTool(options.tools ?? { tools: [add, greet] });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall(tool.name, { code }, 'c1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({ model, tools: [tool], ...options.harness });
  const run = await harness.invoke(options.context ?? {}, user('go'), options.invoke);
  const row = run.messages.find((message) => message.role === 'tool');
  const content = row?.role === 'tool' ? String(row.content) : '';
  const completed = eventsOfType(run.events, 'tool_completed').find((event) => event.callId === 'c1');
  return { run, content, executed, model, completed, tool };
}

/** A policy hook: refuses `add` with a tool error, as policy middleware does. */
const denyAdd: AgentMiddleware = {
  name: 'deny_add',
  beforeTool: (call, context) => {
    if (call.name !== 'add') return undefined;
    context.emit({ type: 'tool_denied', callId: call.id, toolName: call.name, message: 'add is denied' });
    return { respond: ToolResult.error('tool `add` is not allowed by policy') };
  },
};

describe('codeModeTool in a harness', () => {
  it('runs a program that calls tools as nested calls of the run_code call', async () => {
    const { run, content, executed, model } = await runProgram(`
      const sums: number[] = [];
      for (let i = 0; i < 3; i++) sums.push((await add({ a: i, b: 10 })).sum);
      console.log('sums', sums);
      return { sums, greeting: await tools.greet({ name: 'Ada' }) };
    `);
    expect(JSON.parse(content)).toEqual({
      result: { sums: [10, 11, 12], greeting: 'hello Ada' },
      console: ['sums [10,11,12]'],
    });
    expect(executed).toEqual(['add:0+10', 'add:1+10', 'add:2+10', 'greet:Ada']);
    const nested = eventsOfType(run.events, 'tool_started').filter((event) => event.parentCallId === 'c1');
    expect(nested.map((event) => event.callId)).toEqual(['c1/1', 'c1/2', 'c1/3', 'c1/4']);
    expect(toolEventViolations(run.events)).toEqual([]);
    // Only run_code is offered to the model; its description declares the callable functions.
    const offered = model.requests[0]?.tools ?? [];
    expect(offered.map((tool) => tool.name)).toEqual(['run_code']);
    expect(offered[0]?.description).toContain(
      'declare function add(args: { a: number; b: number }): Promise<{ sum: number }>;',
    );
    expect(offered[0]?.description).toContain('declare function greet(args: { name: string }): Promise<unknown>;');
  });

  it('rejects a refused nested call in the program with the tool-error text, and nothing runs', async () => {
    const { content, executed } = await runProgram(`
      const errors = [];
      try { await greet({ name: 'x'.repeat(50) }); } catch (e) { errors.push(e.message); }
      try { await add({ a: 'one', b: 2 }); } catch (e) { errors.push(e.message); }
      try { await tools.nope({}); } catch (e) { errors.push(e.message); }
      return errors;
    `);
    const errors = JSON.parse(content).result as string[];
    expect(errors[0]).toMatch(/greet.*name/s);
    expect(errors[1]).toMatch(/add/);
    expect(errors[2]).toMatch(/unknown tool `nope`; callable: \[add, greet\]/);
    expect(executed).toEqual([]);
  });

  it('fills injected host values the program never sees', async () => {
    const seen: unknown[] = [];
    const whoami = defineTool({
      name: 'whoami',
      description: 'Says who the user is.',
      parameters: Type.Object({ userId: Type.String() }),
      injected: [{ name: 'userId', source: 'host' }],
      execute: ({ userId }) => {
        seen.push(userId);
        return 'ok';
      },
    });
    const { content, model } = await runProgram(`return await whoami({ userId: 'forged' });`, {
      tools: { tools: [whoami] },
      context: { hostValues: { userId: 'u-42' } },
    });
    expect(seen).toEqual(['u-42']);
    expect(JSON.parse(content).result).toBe('ok');
    expect(model.requests[0]?.tools?.[0]?.description).toContain('declare function whoami(args: object)');
  });

  it('lists approval-requiring tools as unavailable and refuses them', async () => {
    const { add } = makeTools();
    let paid = false;
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: Type.Object({ amount: Type.Number() }),
      policy: ToolPolicy.unclassified().withAccess({ approvalRequired: true }),
      execute: () => {
        paid = true;
        return 'paid';
      },
    });
    const { content, tool } = await runProgram(`return await tools.pay({ amount: 1 }).catch((e) => e.message);`, {
      tools: { tools: [add, pay] },
    });
    expect(tool.description).toContain('// Not callable from code: pay (requires approval)');
    expect(JSON.parse(content).result).toMatch(/not callable from code/);
    expect(paid).toBe(false);
  });

  it('applies policy middleware to nested calls', async () => {
    const { content, executed, run } = await runProgram(
      `return await add({ a: 1, b: 2 }).then(() => 'ran', (e) => e.message);`,
      { harness: { middleware: [denyAdd] } },
    );
    expect(JSON.parse(content).result).toMatch(/not allowed by policy/);
    expect(executed).toEqual([]);
    expect(eventsOfType(run.events, 'tool_denied').map((event) => event.callId)).toEqual(['c1/1']);
    expect(run.toolCalls).toBe(2);
  });
});
