import { InvalidInputError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';
import { codeModeTool } from '../code-mode-tool.js';
import { CodeModeLimitError } from '../errors/code-mode-limit-error.js';
import { CodeProgramError } from '../errors/code-program-error.js';
import { DEFAULT_CODE_MODE_LIMITS } from '../limits.js';
import { runSandboxed, type SandboxHost } from './run-sandboxed.js';

const host: SandboxHost = {
  names: ['echo', 'fail'],
  call: async (name, args) => {
    if (name === 'fail') throw new Error('refused by the host');
    return args;
  },
};

const small = { ...DEFAULT_CODE_MODE_LIMITS, cpuTimeMs: 100 };

/** Runs `source` and counts host event-loop turns while it runs (0 would mean the host was blocked). */
async function runCounting(source: string, limits = small) {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { outcome: await runSandboxed(source, host, limits), turns };
  } catch (error) {
    return { error, turns };
  } finally {
    running = false;
  }
}

const limitKindOf = (error: unknown) => (CodeModeLimitError.isInstance(error) ? error.limitKind : error);

describe('hostile programs never run on the host thread', () => {
  it.each([
    ['a thrown object whose message getter loops', 'throw { get message() { for (;;) {} } };'],
    ['a thrown object whose toString loops', 'throw { toString() { for (;;) {} } };'],
    ['a thrown proxy whose traps loop', 'throw new Proxy({}, { get() { for (;;) {} }, has() { for (;;) {} } });'],
  ])('%s ends at the CPU limit while the host keeps turning', async (_, source) => {
    const { error, turns } = await runCounting(source);
    expect(limitKindOf(error)).toBe('cpu_time');
    expect(turns).toBeGreaterThan(0);
  });

  it('describes a thrown object without calling its looping toJSON', async () => {
    const { error, turns } = await runCounting('throw { toJSON() { for (;;) {} } };');
    expect(CodeProgramError.isInstance(error) && error.detail).toBe('thrown value: [object Object]');
    expect(turns).toBeGreaterThan(0);
  });

  it('rejects a nested call past a looping Error.prototype setter with the host message', async () => {
    const { error, turns } = await runCounting(
      "Object.defineProperty(Error.prototype, 'message', { set(v) { for (;;) {} } });\n" +
        "Object.defineProperty(Error.prototype, 'name', { set(v) { for (;;) {} } });\n" +
        'await fail({});',
    );
    expect(CodeProgramError.isInstance(error) && error.detail).toBe('ToolError: refused by the host');
    expect(turns).toBeGreaterThan(0);
  });

  it('stops on an aborted signal while the program loops', async () => {
    const controller = new AbortController();
    const pending = runSandboxed('for (;;) {}', host, { ...small, cpuTimeMs: 60_000 }, controller.signal);
    controller.abort(new Error('cancelled by the host'));
    await expect(pending).rejects.toThrow('cancelled by the host');
  });
});

describe('the CPU limit holds inside native builtins', () => {
  const huge = '{ length: 2 ** 53 - 1 }';
  it.each([
    `Array.prototype.indexOf.call(${huge}, 1)`,
    `Array.prototype.lastIndexOf.call(${huge}, 1)`,
    `Array.prototype.includes.call(${huge}, 1)`,
    `Array.prototype.join.call(${huge}, '')`,
    `Array.prototype.reverse.call(${huge})`,
    `Array.prototype.copyWithin.call(${huge}, 1, 0)`,
    `Array.prototype.forEach.call(${huge}, () => {})`,
    `Array.prototype.sort.call({ length: 2 ** 32 - 1 })`,
    'const a = []; a.length = 2 ** 32 - 1; a.lastIndexOf(1)',
    'for (;;) Array.prototype.indexOf.call({ length: 300000 }, 1)',
    "/(a+)+$/.test('a'.repeat(40) + 'b')",
  ])('%s ends at the CPU limit', async (source) => {
    const { error, turns } = await runCounting(`${source};\nreturn 1;`);
    expect(limitKindOf(error)).toBe('cpu_time');
    expect(turns).toBeGreaterThan(0);
  });

  it('stops a fill over a huge array-like at the memory or the CPU limit', async () => {
    const { error } = await runCounting(`Array.prototype.fill.call(${huge}, 0); return 1;`);
    expect(['cpu_time', 'memory']).toContain(limitKindOf(error));
  });
});

describe('memoryBytes is enforced', () => {
  it('stops a program holding strings far past the limit as a memory limit, and frees the memory', async () => {
    const limits = { ...DEFAULT_CODE_MODE_LIMITS, cpuTimeMs: 30_000 };
    const before = process.memoryUsage().rss;
    const error = await runSandboxed(
      "const keep = []; for (let i = 0; i < 2048; i++) keep.push(new Uint8Array(1 << 20).fill(i), ('x'.repeat(1 << 10) + i).toUpperCase()); return keep.length;",
      host,
      limits,
    ).catch((caught: unknown) => caught);
    expect(limitKindOf(error)).toBe('memory');
    expect((error as CodeModeLimitError).limit).toBe(limits.memoryBytes);
    // 2 GiB were asked for; the wasm memory could not grow past 32 MiB + 16 MiB.
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
  });

  it('reports an allocation failure as the memory limit, never as `thrown value: null`', async () => {
    const error = await runSandboxed(
      'const keep = []; try { for (;;) keep.push(new Float64Array(1 << 15)); } catch (e) { throw e; }',
      host,
      { ...DEFAULT_CODE_MODE_LIMITS, memoryBytes: 4 * 1024 * 1024, cpuTimeMs: 30_000 },
    ).catch((caught: unknown) => caught);
    expect(limitKindOf(error)).toBe('memory');
  });
});

describe('the result is read as plain data', () => {
  it('ignores a Promise species that tries to forge the result envelope', async () => {
    const outcome = await runSandboxed(
      `const resolve = Promise.resolve.bind(Promise);
       const forged = '1,"console":["forged"]';
       function Species(executor) { executor(() => {}, () => {}); return resolve(forged); }
       Object.defineProperty(Promise.prototype, 'constructor', { value: { [Symbol.species]: Species }, configurable: true, writable: true });
       Promise.resolve = () => resolve(forged);
       Promise.prototype.then = function () { return resolve(forged); };
       return 1;`,
      host,
      small,
    );
    expect(outcome.json).toBe('1');
  });

  it('reads a returned thenable and a getter inside the sandbox, as JSON', async () => {
    const outcome = await runSandboxed(
      "return { get a() { return 'from a getter'; }, toJSON() { return { b: 2 }; } };",
      host,
      small,
    );
    expect(JSON.parse(outcome.json)).toEqual({ b: 2 });
    const failed = await runSandboxed('return { toJSON() { throw new TypeError("no"); } };', host, small).catch(
      (caught: unknown) => caught,
    );
    expect(CodeProgramError.isInstance(failed) && failed.detail).toBe('TypeError: no');
  });
});

describe('codeModeTool options', () => {
  it.each([5, {}, 'add', null])('refuses tools: %j with InvalidInputError', (tools) => {
    expect(() => codeModeTool({ tools: tools as never })).toThrow(InvalidInputError);
  });

  it('refuses a toolSet that is not a toolset with InvalidInputError', () => {
    expect(() => codeModeTool({ toolSet: 5 as never })).toThrow(InvalidInputError);
  });
});
