import { cpuUsage } from 'node:process';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, InvalidInputError } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from '../code-mode-tool.js';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { CodeProgramError } from '../errors/code-program-error.js';
import { DEFAULT_CODE_MODE_LIMITS, resolveCodeModeLimits } from '../limits.js';
import { runSandboxed, type SandboxHost } from './run-sandboxed.js';

const host: SandboxHost = { names: ['echo', 'add'], call: async (_name, args) => args };
const limits = DEFAULT_CODE_MODE_LIMITS;

async function settle(run: Promise<unknown>): Promise<unknown> {
  try {
    return await run;
  } catch (error) {
    return error;
  }
}

/** Runs `run` and counts host event-loop turns meanwhile (0 would mean the host was blocked). */
async function counting(run: () => Promise<unknown>) {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await settle(run());
  running = false;
  return { result, turns };
}

const kindOf = (error: unknown) =>
  CodeModeLimitError.isInstance(error) ? error.limitKind : CodeProgramError.isInstance(error) ? error.failure : error;

// A TypeScript parser backtracks exponentially on this (271 characters froze the host for seconds).
const backtracking = `x = ${'a ? (b): c => '.repeat(40)}d`;

describe('program text is only ever handled under the program limits', () => {
  it('strips types inside the sandbox, as CPU time, so hostile text ends at the CPU limit', async () => {
    const { result, turns } = await counting(() =>
      runSandboxed(backtracking, host, { ...limits, cpuTimeMs: 100 }, { typescript: true }),
    );
    expect(kindOf(result)).toBe('cpu_time');
    expect(turns).toBeGreaterThan(0);
  });

  it('runs the code-mode tool on such text without blocking the host', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      parameters: Type.Object({ s: Type.String() }),
      execute: ({ s }) => s,
    });
    const tool = codeModeTool({ tools: [echo], limits: { cpuTimeMs: 100 } });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', { code: backtracking }, 'c1')] }, { content: 'done' }],
    });
    const harness = new AgentHarness({ model, tools: [tool] });
    const { result, turns } = await counting(() => harness.invoke({}, [{ role: 'user', content: 'go' }]));
    const run = result as Awaited<ReturnType<typeof harness.invoke>>;
    const row = run.messages.find((message) => message.role === 'tool');
    expect(String(row?.content)).toContain('limit of 100 ms of CPU time');
    expect(turns).toBeGreaterThan(0);
  });

  it('still strips type annotations', async () => {
    const outcome = await runSandboxed(
      'const n: number = await echo({ a: 1 as number }).then((r: { a: number }) => r.a); return n + 1;',
      host,
      limits,
      { typescript: true },
    );
    expect(outcome.json).toBe('2');
  });

  it('reports a TypeScript syntax error as syntax', async () => {
    const error = await settle(runSandboxed('const = ;', host, limits, { typescript: true }));
    expect(kindOf(error)).toBe('syntax');
  });
});

describe('the CPU watchdog does not need the host event loop', () => {
  it('ends a program stuck in a C builtin while the host thread is blocked', async () => {
    const blockMs = 2000;
    const run = settle(
      runSandboxed('Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1); return 1;', host, {
        ...limits,
        cpuTimeMs: 100,
      }),
    );
    // Let the program start, then block this thread (no timers, no messages) for `blockMs`.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = cpuUsage();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, blockMs);
    const used = cpuUsage(before);
    expect(kindOf(await run)).toBe('cpu_time');
    // The sandbox thread was ended near its 150 ms hard stop, not after the host woke up: the whole
    // process spent far less CPU than the blocked span (it would be about `blockMs` otherwise).
    expect((used.user + used.system) / 1000).toBeLessThan(blockMs / 2);
  });
});

describe('limits are told from host facts, never from the words of an error', () => {
  it.each([
    ["throw new Error('out of memory');", 'threw'],
    ["throw 'stack overflow';", 'threw'],
    ["const e = new Error('x'); e.name = 'out of memory'; throw e;", 'threw'],
    ["const e = new RangeError('Maximum call stack size exceeded'); throw e;", 'threw'],
    ["const e = new Error('stack overflow'); e.name = 'InternalError'; throw e;", 'threw'],
    ["throw Object.assign(new Error('stack overflow'), { [Symbol.toStringTag]: 'Error' });", 'threw'],
  ])('%s is a program error', async (source, failure) => {
    const error = await settle(runSandboxed(source, host, limits));
    expect(CodeProgramError.isInstance(error)).toBe(true);
    expect(kindOf(error)).toBe(failure);
  });

  it('takes the InternalError constructor away from programs', async () => {
    const outcome = await runSandboxed('return typeof InternalError;', host, limits);
    expect(outcome.json).toBe('"undefined"');
  });

  it.each([
    ['plain recursion', 'function f(n) { return f(n + 1) + 1; } return f(0);'],
    ['recursion inside JSON.stringify', 'let a = []; for (let i = 0; i < 30000; i++) a = [a]; return a;'],
  ])('reports %s as the stack limit', async (_, source) => {
    expect(kindOf(await settle(runSandboxed(source, host, { ...limits, cpuTimeMs: 20_000 })))).toBe('stack');
  });

  it.each([
    ['plain', 'function f(n) { return f(n + 1) + 1; } return f(0);'],
    ['getter', 'const o = { get x() { return this.x; } }; return o.x;'],
    ['proxy', 'const p = new Proxy({}, { get(t, k, r) { return r[k]; } }); return p.x;'],
    ['toString', 'const o = { toString() { return String(this); } }; return String(o);'],
    ['sort callback', 'function f() { [3, 2, 1].sort(() => { f(); return 0; }); } f(); return 1;'],
  ])('reports %s recursion at the largest stackBytes as the stack limit', async (_, source) => {
    const error = await settle(runSandboxed(source, host, { ...limits, stackBytes: 1024 * 1024 }));
    expect(kindOf(error)).toBe('stack');
  });

  it('refuses a stackBytes above 1 MiB', () => {
    expect(() => resolveCodeModeLimits({ stackBytes: 2 * 1024 * 1024 })).toThrow(InvalidInputError);
    expect(resolveCodeModeLimits({ stackBytes: 1024 * 1024 }).stackBytes).toBe(1024 * 1024);
  });

  it('refuses a stackBytes above 1 MiB in runSandboxed too', async () => {
    const error = await settle(runSandboxed('return 1;', host, { ...limits, stackBytes: 8 * 1024 * 1024 }));
    expect(InvalidInputError.isInstance(error)).toBe(true);
  });
});

describe('values leaving the sandbox are bounded by memoryBytes', () => {
  it('stops a nested call whose arguments would amplify on the host as a memory limit', async () => {
    let calls = 0;
    const counted: SandboxHost = {
      names: ['echo'],
      call: async (_name, args) => {
        calls += 1;
        return args;
      },
    };
    const error = await settle(
      runSandboxed('return await echo({ s: new Array(2e6).fill({}) });', counted, { ...limits, cpuTimeMs: 10_000 }),
    );
    expect(kindOf(error)).toBe('memory');
    expect(calls).toBe(0);
  });

  it('stops a result longer than memoryBytes / 4 as a memory limit', async () => {
    const error = await settle(runSandboxed("return 'x'.repeat(9 * 1024 * 1024);", host, limits));
    expect(kindOf(error)).toBe('memory');
  });

  it('reports the first limit reached even when the thread is ended later for CPU time', async () => {
    const source =
      "const s = 'x'.repeat(8e6); const ps = []; for (let i = 0; i < 100; i++) ps.push(echo({ s }).catch(() => 0)); await Promise.all(ps); return 1;";
    expect(kindOf(await settle(runSandboxed(source, host, { ...limits, cpuTimeMs: 300 })))).toBe('memory');
  });

  it('cuts a long error text', async () => {
    const error = await settle(runSandboxed("throw new Error('e'.repeat(100000));", host, limits));
    expect(CodeProgramError.isInstance(error) && error.detail.length).toBeLessThan(2100);
  });
});

describe('console and call floods', () => {
  it('counts every log line as at least one character', async () => {
    const outcome = await runSandboxed('for (let i = 0; i < 20000; i++) console.log(); return 1;', host, {
      ...limits,
      maxLogChars: 50,
    });
    expect(outcome.logs).toHaveLength(50);
    expect(outcome.droppedLogChars).toBe(20000 - 50);
  });

  it('settles 20,000 concurrent nested calls while the QuickJS memory grows', async () => {
    const outcome = await runSandboxed(
      'const ps = []; const keep = []; for (let i = 0; i < 20000; i++) ps.push(add({ a: i }).then((v) => { keep.push(new Array(50).fill(v)); return v; })); return (await Promise.all(ps)).length;',
      host,
      { ...limits, maxNestedCalls: 20000, cpuTimeMs: 20_000 },
    );
    expect(outcome.json).toBe('20000');
  });

  it('refuses calls past maxNestedCalls as that limit', async () => {
    const error = await settle(
      runSandboxed(
        'const ps = []; for (let i = 0; i < 50; i++) ps.push(add({ a: i }).catch(() => 0)); await Promise.all(ps); return 1;',
        host,
        {
          ...limits,
          maxNestedCalls: 10,
        },
      ),
    );
    expect(kindOf(error)).toBe('nested_calls');
  });
});
