import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from '../code-mode-tool.js';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { DEFAULT_CODE_MODE_LIMITS } from '../limits.js';
import { runSandboxed, type SandboxHost } from './run-sandboxed.js';

const limits = DEFAULT_CODE_MODE_LIMITS;

async function settle(run: Promise<unknown>): Promise<unknown> {
  try {
    return await run;
  } catch (error) {
    return error;
  }
}

const kindOf = (error: unknown) => (CodeModeLimitError.isInstance(error) ? error.limitKind : error);

describe('host-side work per nested call is bounded (second breaker round)', () => {
  it('stops arguments with more JSON values than memoryBytes / 512 as a memory limit, before the host sees them', async () => {
    let calls = 0;
    const host: SandboxHost = {
      names: ['echo'],
      call: async (_name, args) => {
        calls += 1;
        return Array.isArray((args as { s?: unknown }).s) ? ((args as { s: unknown[] }).s.length as number) : -1;
      },
    };
    // 70,000 values in 140 KB of text: under the character cap, over the value cap (65,536 at 32 MiB).
    const over = await settle(runSandboxed('return await echo({ s: new Array(70000).fill(0) });', host, limits));
    expect(kindOf(over)).toBe('memory');
    expect(calls).toBe(0);
    // Under the cap, and commas inside strings are not values.
    const under = await runSandboxed(
      "return [await echo({ s: new Array(60000).fill(0) }), await echo({ t: ','.repeat(500000) })];",
      host,
      limits,
    );
    expect(JSON.parse(under.json)).toEqual([60000, -1]);
  });

  it('keeps at most 4 nested calls of a program with the host at once; the rest wait, in order', async () => {
    let active = 0;
    let most = 0;
    const order: number[] = [];
    const host: SandboxHost = {
      names: ['work'],
      call: async (_name, args) => {
        active += 1;
        most = Math.max(most, active);
        order.push((args as { i: number }).i);
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        active -= 1;
        return (args as { i: number }).i * 2;
      },
    };
    const outcome = await runSandboxed(
      'const all = []; for (let i = 0; i < 20; i++) all.push(work({ i })); return await Promise.all(all);',
      host,
      limits,
    );
    expect(JSON.parse(outcome.json)).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('starts nested calls in their own macrotasks: the host never runs more than 4 in one event-loop turn', async () => {
    let turn = 0;
    let spinning = true;
    const spin = () => {
      turn += 1;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    const perTurn = new Map<number, number>();
    const host: SandboxHost = {
      names: ['work'],
      call: async (_name, args) => {
        perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
        // Synchronous host work per call (as parsing and validating big arguments is).
        Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 100_003).sort((a, b) => a - b);
        return args;
      },
    };
    try {
      const outcome = await runSandboxed(
        'const all = []; for (let i = 0; i < 40; i++) all.push(work({ i })); return (await Promise.all(all)).length;',
        host,
        limits,
      );
      expect(outcome.json).toBe('40');
    } finally {
      spinning = false;
    }
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(4);
  });

  it('refuses a tool name over 256 characters in the sandbox, echoing a bounded prefix', async () => {
    const seen: number[] = [];
    const host: SandboxHost = {
      names: ['echo'],
      refuses: (name) => {
        seen.push(name.length);
        return undefined;
      },
      call: async (name) => {
        seen.push(name.length);
        return null;
      },
    };
    const outcome = await runSandboxed(
      "try { await tools['x'.repeat(1e6)]({}); } catch (e) { return e.message; }",
      host,
      limits,
    );
    const message = JSON.parse(outcome.json) as string;
    expect(message).toMatch(/^unknown tool `x{64}… \(1000000 characters\)`/);
    expect(message.length).toBeLessThan(200);
    expect(seen).toEqual([]);
  });

  it('resolves the tool name before the arguments are parsed on the host', async () => {
    let parsed = 0;
    const host: SandboxHost = {
      names: ['echo'],
      refuses: (name) => (name === 'echo' ? undefined : `unknown tool \`${name}\``),
      call: async (_name, args) => {
        parsed += 1;
        return args;
      },
    };
    const outcome = await runSandboxed(
      'try { await tools.nope({ s: new Array(20000).fill({}) }); } catch (e) { return e.message; }',
      host,
      limits,
    );
    expect(JSON.parse(outcome.json)).toBe('unknown tool `nope`');
    expect(parsed).toBe(0);
  });
});

describe('nested calls do not outlive run_code', () => {
  function setup(honors: boolean, timeoutMs?: number) {
    const aborted: unknown[] = [];
    let started = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until its call is aborted.',
      parameters: Type.Object({}),
      policy: ToolPolicy.readOnly(),
      execute: (_args, context) =>
        new Promise<string>((resolve) => {
          started += 1;
          context.signal.addEventListener('abort', () => {
            aborted.push(context.signal.reason);
            if (honors) resolve('aborted');
          });
        }),
    });
    const ping = defineTool({
      name: 'ping',
      description: 'Answers at once.',
      parameters: Type.Object({}),
      policy: ToolPolicy.readOnly(),
      execute: () => 'pong',
    });
    const codeMode = codeModeTool({ tools: [slow, ping] });
    const tool =
      timeoutMs === undefined ? codeMode : { ...codeMode, policy: ToolPolicy.readOnly().withRuntime({ timeoutMs }) };
    return { tool, aborted, started: () => started };
  }

  async function invoke(tool: ReturnType<typeof setup>['tool'], code: string) {
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
    });
    const run = await new AgentHarness({ model, tools: [tool] }).invoke({}, [{ role: 'user', content: 'go' }]);
    return String(run.messages.find((message) => message.role === 'tool')?.content);
  }

  it('aborts the nested calls in flight when run_code times out', async () => {
    const { tool, aborted, started } = setup(true, 300);
    const error = await settle(invoke(tool, 'await Promise.all([slow({}), slow({}), slow({})]); return 1;'));
    expect(String(error)).toMatch(/timed out after 300 ms/);
    // On a loaded machine the timeout may come before all three have started: every call that
    // started is aborted, whichever they are.
    expect(aborted).toHaveLength(started());
  });

  it('aborts the nested calls a finished program left running, and waits for them to settle', async () => {
    const { tool, aborted, started } = setup(true);
    // Calls start in order: once `ping` has answered, both `slow` calls are running.
    const row = await invoke(tool, 'slow({}); slow({}); await ping({}); return 7;');
    expect(row).toContain('"result":7');
    expect(started()).toBe(2);
    expect(aborted).toHaveLength(2);
  });

  it('does not wait forever for a nested call that ignores its abort', async () => {
    const { tool, aborted, started } = setup(false);
    const row = await invoke(tool, 'slow({}); await ping({}); return 8;');
    expect(row).toContain('"result":8');
    expect(started()).toBe(1);
    expect(aborted).toHaveLength(1);
  });
});

describe('CPU limits count the work a program causes between its slices', () => {
  const echo: SandboxHost = { names: ['echo'], call: async (_name, args) => args };

  it.runIf(process.platform === 'linux')(
    'stops a program whose queued call arguments cost CPU outside the interrupt handler',
    async () => {
      // Reading, scanning and posting 1 MiB arguments happens between QuickJS slices: with the
      // thread's CPU clock it counts, and the program is stopped instead of finishing at 3x its limit.
      const source = `
        const s = '\\u20ac'.repeat(1048566);
        let n = 0;
        const chain = async () => { while (n < 99) { n++; await echo(s).catch(() => 0); } };
        await Promise.all([chain(), chain(), chain(), chain(), chain(), chain(), chain(), chain()]);
        return n;`;
      const limits = {
        ...DEFAULT_CODE_MODE_LIMITS,
        memoryBytes: 32 * 1024 * 1024,
        cpuTimeMs: 300,
        maxNestedCalls: 100,
      };
      const error = await runSandboxed(source, echo, limits).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(CodeModeLimitError.isInstance(error) && error.limitKind).toBe('cpu_time');
    },
  );
});
