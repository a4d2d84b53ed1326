import { AgentHarness, LimitExceededError, type RunContext, ToolExecutionError } from '@tiny/harness';
import { eventsOfType, ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { type Message, messageText } from '@tiny/llm';
import { type AnyTool, defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from './code-mode-tool.js';
import type { CodeModeLimits } from './limits.js';

const user = (text: string): Message[] => [{ role: 'user', content: text }];

interface Setup {
  readonly limits?: Partial<CodeModeLimits>;
  readonly maxToolCalls?: number;
  readonly extra?: readonly AnyTool[];
  readonly context?: RunContext;
}

async function run(code: string, setup: Setup = {}) {
  const executed: string[] = [];
  const add = defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
    execute: ({ a, b }) => {
      executed.push('add');
      return a + b;
    },
  });
  const secret = defineTool({
    name: 'secret',
    description: 'Host-only.',
    parameters: Type.Object({}),
    exposure: 'hidden',
    execute: () => {
      executed.push('secret');
      return 'leaked';
    },
  });
  const big = defineTool({
    name: 'big',
    description: 'Returns a large text.',
    parameters: Type.Object({ n: Type.Integer() }),
    execute: ({ n }) => {
      executed.push('big');
      return 'y'.repeat(n);
    },
  });
  const tool = codeModeTool({ tools: [add, big], ...(setup.limits ? { limits: setup.limits } : {}) });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({
    model,
    tools: [tool, secret, ...(setup.extra ?? [])],
    limits: { maxToolCalls: setup.maxToolCalls ?? 50 },
  });
  const agentRun = await harness.invoke(setup.context ?? {}, user('go'));
  const row = agentRun.messages.find((message) => message.role === 'tool');
  const content = row?.role === 'tool' ? String(row.content) : '';
  const completed = eventsOfType(agentRun.events, 'tool_completed').find((event) => event.callId === 'c1');
  return { agentRun, content, executed, completed };
}

const limitOf = (completed: { metadata?: unknown } | undefined) => (completed?.metadata as { limit?: string })?.limit;

describe('adversarial programs end with a typed tool error within their limit', () => {
  it('stops an infinite loop at the CPU-time limit, even one that catches', async () => {
    const plain = await run('while (true) {}', { limits: { cpuTimeMs: 200 } });
    expect(plain.completed?.error).toMatch(/limit of 200 ms of CPU time reached/);
    expect(limitOf(plain.completed)).toBe('cpu_time');
    const catching = await run('for (;;) { try { while (true) {} } catch (e) {} }', { limits: { cpuTimeMs: 200 } });
    expect(limitOf(catching.completed)).toBe('cpu_time');
  });

  it('stops deep recursion at the stack limit', async () => {
    const { completed } = await run('function f(n) { return f(n + 1) + 1; } return f(0);');
    expect(limitOf(completed)).toBe('stack');
    expect(completed?.error).toMatch(/bytes of stack/);
  });

  it('stops a memory bomb at the memory limit, and the next program runs normally', async () => {
    const bomb = await run("const chunks = []; for (;;) chunks.push('x'.repeat(1 << 16) + chunks.length);", {
      limits: { memoryBytes: 8 * 1024 * 1024, cpuTimeMs: 30_000 },
    });
    expect(limitOf(bomb.completed)).toBe('memory');
    const after = await run('return await add({ a: 2, b: 3 });');
    expect(JSON.parse(after.content)).toEqual({ result: 5 });
  });

  it('cuts a huge result and a console flood at their limits', async () => {
    const huge = await run("return 'x'.repeat(1000000);", { limits: { maxOutputChars: 1000, cpuTimeMs: 20_000 } });
    expect(huge.completed?.error).toBeUndefined();
    expect(huge.content.length).toBeLessThanOrEqual(1000);
    expect(huge.content).toMatch(/\[output cut at 1000 of 1000013 characters\]$/);
    const flood = await run("for (let i = 0; i < 20000; i++) console.log('spam ' + i); return 1;", {
      limits: { maxLogChars: 500, cpuTimeMs: 30_000 },
    });
    const parsed = JSON.parse(flood.content) as { result: number; console: string[] };
    expect(parsed.result).toBe(1);
    expect(parsed.console.slice(0, -1).join('').length).toBeLessThanOrEqual(500);
    expect(parsed.console.at(-1)).toMatch(/more console characters dropped\]$/);
  });

  it('refuses a nested result larger than maxNestedResultChars inside the program', async () => {
    const { content, executed } = await run('return await big({ n: 5000 }).then(() => "got it", (e) => e.message);', {
      limits: { maxNestedResultChars: 1000 },
    });
    expect(executed).toEqual(['big']);
    expect(JSON.parse(content).result).toMatch(/result of `big` is 5002 characters, over the limit of 1000/);
  });

  it('gives the program no host objects, and its prototype changes stay inside', async () => {
    const { content } = await run(`
      const names = Object.getOwnPropertyNames(globalThis);
      const escapes = [];
      for (const attempt of [
        () => typeof process + typeof require + typeof fetch + typeof setTimeout + typeof WebAssembly,
        () => add.constructor('return typeof process')(),
        () => tools.add.constructor.constructor('return typeof globalThis.process')(),
        () => (async () => {}).constructor('return typeof require')(),
        () => typeof globalThis.__tinyHost,
      ]) {
        try { escapes.push(String(attempt())); } catch (e) { escapes.push('threw ' + e.name); }
      }
      Object.prototype.polluted = 'yes';
      Array.prototype.push = () => 0;
      JSON.stringify = () => '"tampered"';
      return { names: names.filter((n) => /process|require|module|host|call|log/i.test(n)), escapes };
    `);
    const result = JSON.parse(content).result as { names: string[]; escapes: string[] };
    expect(result.names).toEqual([]);
    expect(result.escapes[0]).toBe('undefinedundefinedundefinedundefinedundefined');
    for (const outcome of result.escapes.slice(1)) expect(outcome).toMatch(/^(undefined|\[object Promise\])$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([1].push(2)).toBe(2);
  });

  it('refuses unknown and hidden tools; nothing runs', async () => {
    const { content, executed } = await run(`
      const out = [];
      for (const name of ['secret', 'run_code', 'constructor', '__proto__', 'nope']) {
        out.push(await tools[name]({}).then(() => 'ran', (e) => e.message));
      }
      return out;
    `);
    const messages = JSON.parse(content).result as string[];
    expect(messages).toHaveLength(5);
    for (const message of messages) expect(message).toMatch(/unknown tool `.*`; callable: \[add, big\]/);
    expect(executed).toEqual([]);
  });

  it('refuses arguments that violate the schema or are not JSON objects', async () => {
    const { content, executed } = await run(`
      const out = [];
      const attempts = [
        () => add({ a: 1 }),
        () => add(5),
        () => add([1, 2]),
        () => { const x = {}; x.self = x; return add(x); },
        () => add({ a: Infinity, b: 1 }),
      ];
      for (const attempt of attempts) {
        try { out.push(await attempt()); } catch (e) { out.push('refused: ' + e.message); }
      }
      return out;
    `);
    const results = JSON.parse(content).result as unknown[];
    expect(results.slice(0, 4).every((entry) => String(entry).startsWith('refused: '))).toBe(true);
    expect(String(results[3])).toMatch(/circular/);
    // Infinity crosses as JSON null, which the schema refuses too.
    expect(String(results[4])).toMatch(/^refused: .*add/);
    expect(executed).toEqual([]);
  });

  it('stops 10^4 nested calls at maxNestedCalls, sequential or all at once', async () => {
    const sequential = await run(
      'let s = 0; for (let i = 0; i < 10000; i++) s += await add({ a: i, b: 1 }); return s;',
      {
        maxToolCalls: 100_000,
      },
    );
    expect(limitOf(sequential.completed)).toBe('nested_calls');
    expect(sequential.executed).toHaveLength(100);
    const parallel = await run(
      'const all = []; for (let i = 0; i < 10000; i++) all.push(add({ a: i, b: 1 })); return (await Promise.all(all)).length;',
      { maxToolCalls: 100_000 },
    );
    expect(limitOf(parallel.completed)).toBe('nested_calls');
    // At most 4 calls of a program are with the host at once; the queued rest end with the program.
    expect(parallel.executed).toHaveLength(4);
  });

  it('runs 10^4 nested calls when the limits allow them, each admitted under the parent', async () => {
    const { content, agentRun } = await run(
      'let s = 0; for (let i = 0; i < 10000; i++) s += await add({ a: i, b: 1 }); return s;',
      { maxToolCalls: 20_000, limits: { maxNestedCalls: 10_000, cpuTimeMs: 60_000 } },
    );
    expect(JSON.parse(content).result).toBe(50_005_000);
    expect(agentRun.toolCalls).toBe(10_001);
    const nested = eventsOfType(agentRun.events, 'tool_completed').filter((event) => event.parentCallId === 'c1');
    expect(nested).toHaveLength(10_000);
    expect(nested.at(-1)?.callId).toBe('c1/10000');
  });

  it('ends the run (LimitExceededError) when nested calls exhaust the run budget', async () => {
    await expect(
      run('for (let i = 0; i < 10000; i++) { try { await add({ a: i, b: 1 }); } catch (e) {} } return 0;', {
        maxToolCalls: 30,
        limits: { maxNestedCalls: 10_000 },
      }),
    ).rejects.toSatisfy(
      (error) =>
        ToolExecutionError.isInstance(error) &&
        LimitExceededError.isInstance(error.cause) &&
        error.cause.limitKind === 'tool_calls',
    );
  });

  it('applies the host allow-list to nested calls', async () => {
    const { content, executed } = await run('return await add({ a: 1, b: 1 }).catch((e) => e.message);', {
      context: { host: { allowedTools: ['run_code'] } },
    });
    expect(JSON.parse(content).result).toMatch(/not found|unknown|not registered/i);
    expect(executed).toEqual([]);
  });

  it('reports programs that do not parse, throw, or never finish', async () => {
    expect((await run('return (;')).completed?.error).toMatch(/^program does not parse/);
    const threw = await run("console.log('before'); throw new RangeError('boom');");
    expect(threw.completed?.error).toBe('program threw: RangeError: boom\nconsole:\nbefore');
    expect((await run('await new Promise(() => {}); return 1;')).completed?.error).toMatch(/^program never finished/);
    expect((await run('return 1'.repeat(20_000), { limits: { maxProgramChars: 1000 } })).completed?.error).toMatch(
      /1000 characters of program text/,
    );
  });

  it('strips TypeScript annotations', async () => {
    const { content } = await run(`
      interface Pair { a: number; b: number }
      const pairs: Pair[] = [{ a: 1, b: 2 }, { a: 3, b: 4 }];
      const sums = await Promise.all(pairs.map((p: Pair) => add(p) as Promise<number>));
      return sums satisfies number[];
    `);
    expect(JSON.parse(content).result).toEqual([3, 7]);
  });
});

describe('text dialects', () => {
  it('carries the program as the argument of a tagged call', async () => {
    const add = defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
      execute: ({ a, b }) => a + b,
    });
    const code = 'const r = await add({ a: 20, b: 22 });\nreturn { r, text: "quote \\" and <tag>" };';
    const model = new ScriptedModel({
      profile: { toolCalling: false },
      steps: [
        { content: `<tool_call>${JSON.stringify({ name: 'run_code', arguments: { code } })}</tool_call>` },
        { content: 'Done.' },
      ],
    });
    const run = await new AgentHarness({ model, tools: [codeModeTool({ tools: [add] })] }).invoke(
      { runId: 'r1' },
      user('add'),
    );
    expect(run.text).toBe('Done.');
    const row = run.messages.find((message) => message.role === 'tool');
    expect(JSON.parse(row?.role === 'tool' ? String(row.content) : '')).toEqual({
      result: { r: 42, text: 'quote " and <tag>' },
    });
    expect(messageText(model.requests[0]?.messages[0] as Message)).toContain(
      'declare function add(args: { a: number; b: number }): Promise<unknown>;',
    );
  });
});
