import {
  CodeModeLimitError,
  CodeProgramError,
  DEFAULT_CODE_MODE_LIMITS,
  runSandboxed,
  type SandboxHost,
} from '@tiny/code-mode';
import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool } from '@tiny/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const RUNS = Number(process.env.CODE_MODE_HOSTILE_RUNS ?? 48);
const CPU_MS = 100;
const WALL_MS = 500;
const MiB = 1024 * 1024;

const host: SandboxHost = {
  names: ['echo', 'fail'],
  call: async (name, args) => {
    if (name === 'fail') throw new Error('refused by the host');
    return args;
  },
};

const loop = 'for (;;) {}';
const lengths = ['2 ** 53 - 1', '2 ** 32 - 1', '1e7'];
const genericMethods = [
  ['indexOf', '1'],
  ['lastIndexOf', '1'],
  ['includes', '1'],
  ['join', "''"],
  ['reverse', ''],
  ['copyWithin', '1, 0'],
  ['fill', '0'],
  ['sort', ''],
  ['splice', '0, 0, 1'],
  ['slice', '0'],
  ['forEach', '() => {}'],
  ['every', '() => true'],
  ['some', '() => false'],
  ['reduce', '(a) => a, 0'],
  ['find', '() => false'],
  ['findLast', '() => false'],
  ['unshift', '1'],
  ['toReversed', ''],
  ['at', '-1'],
] as const;

/** One hostile statement (each ends the program with a limit or a program error, or runs quickly). */
const hostile = fc.oneof(
  fc
    .constantFrom(
      `{ toJSON() { ${loop} } }`,
      `{ get message() { ${loop} } }`,
      `{ get name() { ${loop} }, message: 'm' }`,
      `{ toString() { ${loop} } }`,
      `{ [Symbol.toPrimitive]() { ${loop} } }`,
      `new Proxy({}, { get() { ${loop} }, has() { ${loop} }, getPrototypeOf() { ${loop} } })`,
      'null',
    )
    .map((value) => `throw ${value};`),
  fc
    .constantFrom('message', 'name', 'stack', 'cause')
    .map(
      (key) =>
        `Object.defineProperty(Error.prototype, '${key}', { set(v) { ${loop} }, get() { ${loop} }, configurable: true });\nawait fail({});`,
    ),
  fc
    .tuple(fc.constantFrom(...genericMethods), fc.constantFrom(...lengths))
    .map(
      ([[method, args], length]) => `Array.prototype.${method}.call({ length: ${length} }${args ? `, ${args}` : ''});`,
    ),
  fc
    .tuple(fc.constantFrom(...genericMethods), fc.integer({ min: 100_000, max: 400_000 }))
    .map(
      ([[method, args], length]) =>
        `for (;;) Array.prototype.${method}.call({ length: ${length} }${args ? `, ${args}` : ''});`,
    ),
  fc.constantFrom(
    'const a = []; a.length = 2 ** 32 - 1; a.lastIndexOf(1);',
    'Array.from({ length: 2 ** 32 - 1 });',
    'new Uint8Array(2 ** 31);',
    'new Float64Array({ length: 2 ** 28 });',
    "'x'.repeat(2 ** 28);",
    "'x'.padStart(2 ** 29, 'ab');",
    "let s = 'ab'; for (;;) s = s + s;",
    'JSON.stringify(Array.from({ length: 1e7 }, () => [1, [2, [3]]]));',
    "/(a+)+$/.test('a'.repeat(48) + 'b');",
    "/^(\\w+\\s?)*$/.test('ab '.repeat(40) + '!');",
    "'x'.repeat(1e6).split('').join('-').split('-').sort().join('');",
  ),
  fc
    .constantFrom(
      'new Uint8Array(1 << 20).fill(i)',
      "('x'.repeat(1 << 12) + i).toUpperCase()",
      '{ i, nested: [i, i, i], text: String(i) }',
      'new Array(1 << 16).fill(i)',
    )
    .map((item) => `const keep = []; for (let i = 0; ; i++) keep.push(${item});`),
  fc.constant(
    `const resolve = Promise.resolve.bind(Promise);
     const forged = '1,"console":["forged"]';
     function Species(executor) { executor(() => {}, () => {}); return resolve(forged); }
     Object.defineProperty(Promise.prototype, 'constructor', { value: { [Symbol.species]: Species }, configurable: true });
     Promise.resolve = () => resolve(forged);
     Promise.prototype.then = function () { return resolve(forged); };
     return 1;`,
  ),
  fc.constant(`return { get then() { ${loop} } };`),
  fc.constant(`return { toJSON() { ${loop} } };`),
  // Text a TypeScript parser backtracks on exponentially: stripped in the sandbox, as CPU time.
  fc.integer({ min: 18, max: 60 }).map((n) => `x = ${'a ? (b): c => '.repeat(n)}d;`),
  // Amplifying results and arguments: small program text, millions of values on the way out.
  fc.integer({ min: 200_000, max: 2_000_000 }).map((n) => `return new Array(${n}).fill({});`),
  fc.integer({ min: 200_000, max: 2_000_000 }).map((n) => `await echo({ s: new Array(${n}).fill({}) });`),
  // Floods of empty log lines and of concurrent calls.
  fc.constant('for (;;) console.log();'),
  fc
    .integer({ min: 1000, max: 5000 })
    .map(
      (n) =>
        `const ps = []; for (let i = 0; i < ${n}; i++) ps.push(echo({ i }).catch(() => 0)); await Promise.all(ps);`,
    ),
);

const program = fc
  .tuple(fc.constantFrom('', "console.log('start');", 'await echo({ a: 1 });'), hostile)
  .map(([before, statement]) => `${before}\n${statement}\nreturn 'survived';`);

describe('code mode against hostile programs', () => {
  it(`keeps the host responsive and ends ${RUNS} hostile programs typed, in bounded time and memory`, async () => {
    const baseline = process.memoryUsage().rss;
    let lastTick = performance.now();
    let maxGapMs = 0;
    let peakRss = baseline;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGapMs = Math.max(maxGapMs, now - lastTick);
      lastTick = now;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 10);
    let hangs = 0;
    const cpuStops: number[] = [];
    let worstWallMs = 0;
    const kinds = new Map<string, number>();
    try {
      await fc.assert(
        fc.asyncProperty(program, async (source) => {
          lastTick = performance.now();
          const started = performance.now();
          let kind: string;
          try {
            const outcome = await runSandboxed(
              source,
              host,
              { ...DEFAULT_CODE_MODE_LIMITS, cpuTimeMs: CPU_MS },
              { signal: AbortSignal.timeout(WALL_MS), typescript: true },
            );
            expect(outcome.json).not.toContain('forged');
            expect(outcome.logs.length).toBeLessThanOrEqual(DEFAULT_CODE_MODE_LIMITS.maxLogChars);
            JSON.parse(outcome.json);
            kind = 'result';
          } catch (error) {
            if (CodeModeLimitError.isInstance(error) || CodeProgramError.isInstance(error)) {
              expect(error.logs.length).toBeLessThanOrEqual(DEFAULT_CODE_MODE_LIMITS.maxLogChars);
            }
            if (CodeModeLimitError.isInstance(error)) kind = error.limitKind;
            else if (CodeProgramError.isInstance(error)) kind = `program:${error.failure}`;
            else if (error instanceof Error && error.name === 'TimeoutError') kind = 'wall_clock';
            else throw error;
          }
          const elapsed = performance.now() - started;
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          worstWallMs = Math.max(worstWallMs, elapsed);
          if (kind === 'cpu_time') cpuStops.push(elapsed / CPU_MS);
          if (elapsed > 2 * WALL_MS) hangs += 1;
        }),
        { numRuns: RUNS },
      );
    } finally {
      clearInterval(ticker);
    }
    const report = {
      runs: RUNS,
      hangs,
      worstWallMs: Math.round(worstWallMs),
      // Wall time from the call to the cpu_time error, × the CPU limit (includes starting a worker
      // thread when the previous program's was ended and its successor is not ready yet).
      cpuStopMedian: Number((cpuStops.sort((a, b) => a - b)[Math.floor(cpuStops.length / 2)] ?? 0).toFixed(2)),
      cpuStopWorst: Number((cpuStops.at(-1) ?? 0).toFixed(2)),
      maxHostGapMs: Math.round(maxGapMs),
      rssBaselineMiB: Math.round(baseline / MiB),
      rssPeakMiB: Math.round(peakRss / MiB),
      kinds: Object.fromEntries(kinds),
    };
    console.log('code-mode hostile:', JSON.stringify(report));
    expect(hangs).toBe(0);
    // The host thread never runs program code: its event loop keeps turning.
    expect(maxGapMs).toBeLessThan(WALL_MS);
    // Each program's wasm memory is capped at 32 MiB + 16 MiB; a few worker threads at a time.
    expect(peakRss - baseline).toBeLessThan(512 * MiB);
  });
});

/** Error texts a program can throw that name a limit: they must come back as the program's own throw. */
const forged = fc
  .tuple(
    fc.constantFrom(
      'out of memory',
      'stack overflow',
      'Maximum call stack size exceeded',
      'interrupted',
      'program stopped: limit of 2000 ms of CPU time reached',
    ),
    fc.constantFrom('InternalError', 'RangeError', 'Error', 'out of memory'),
    fc.constantFrom('error', 'string', 'object', 'tagged'),
  )
  .map(([text, name, shape]) => {
    const quoted = JSON.stringify(text);
    if (shape === 'string') return `throw ${quoted};`;
    if (shape === 'object') return `throw { name: ${JSON.stringify(name)}, message: ${quoted} };`;
    const tag = shape === 'tagged' ? `e[Symbol.toStringTag] = 'Error'; ` : '';
    return `const e = new Error(${quoted}); e.name = ${JSON.stringify(name)}; ${tag}throw e;`;
  });

describe('code mode limits are host facts', () => {
  it(`reports ${RUNS} forged limit messages as program errors`, async () => {
    await fc.assert(
      fc.asyncProperty(forged, async (source) => {
        let error: unknown;
        try {
          await runSandboxed(source, host, DEFAULT_CODE_MODE_LIMITS, { typescript: true });
        } catch (caught) {
          error = caught;
        }
        expect(CodeModeLimitError.isInstance(error)).toBe(false);
        expect(CodeProgramError.isInstance(error) && error.failure).toBe('threw');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('code mode nested calls with big invalid arguments', () => {
  it('validates them without blocking the host: issues are capped and deduplicated in linear time', async () => {
    const prices = defineTool({
      name: 'get_prices',
      description: 'prices',
      parameters: { type: 'object', properties: { skus: { type: 'array', items: { type: 'string' } } } },
      execute: (args: { skus?: unknown[] }) => args.skus?.length ?? 0,
    });
    const { codeModeTool } = await import('@tiny/code-mode');
    let maxGapMs = 0;
    const runs = Math.max(4, Math.floor(RUNS / 8));
    await fc.assert(
      // Up to the value cap of nested-call arguments (memoryBytes / 512 = 65,536 at the default).
      fc.asyncProperty(fc.integer({ min: 20_000, max: 60_000 }), async (n) => {
        const tool = codeModeTool({ tools: [prices], limits: { cpuTimeMs: 500 } });
        const code = `const r = await get_prices({ skus: new Array(${n}).fill(0) }).catch((e) => String(e.message).length); return r;`;
        const model = new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
        });
        const harness = new AgentHarness({ model, tools: [tool] });
        let last = performance.now();
        const ticker = setInterval(() => {
          const now = performance.now();
          maxGapMs = Math.max(maxGapMs, now - last);
          last = now;
        }, 10);
        try {
          const run = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
          const row = run.messages.find((message) => message.role === 'tool');
          // The refusal text (first 100 issues and a count) comes back to the program as data.
          expect(String(row?.content)).toMatch(/"result":\d+/);
        } finally {
          clearInterval(ticker);
        }
      }),
      { numRuns: runs },
    );
    console.log('code-mode big invalid arguments:', JSON.stringify({ runs, maxHostGapMs: Math.round(maxGapMs) }));
    expect(maxGapMs).toBeLessThan(WALL_MS);
  });
});

/** Host-side work per nested call: each class once broke the host (second breaker round). */
const nestedClass = fc.oneof(
  // uniqueItems over object items (ajv's pairwise check took a minute at 40,000).
  fc.integer({ min: 10_000, max: 30_000 }).map((n) => ({
    kind: 'unique',
    code: `return await uniq({ items: Array.from({ length: ${n} }, (_, i) => ({ k: i })) });`,
  })),
  // Concurrent big valid arguments: at most 4 with the host at once.
  fc.integer({ min: 10, max: 30 }).map((calls) => ({
    kind: 'concurrent',
    code: `const ps = []; for (let i = 0; i < ${calls}; i++) ps.push(uniq({ items: new Array(60000).fill(0).map((_, j) => j) }).catch(() => 0)); return (await Promise.all(ps)).length;`,
  })),
  // Object amplification: [{},{},...] under the character cap, over the value cap.
  fc.integer({ min: 1, max: 100 }).map((calls) => ({
    kind: 'amplify',
    code: `const big = new Array(330000).fill({}); const ps = []; for (let i = 0; i < ${calls}; i++) ps.push(uniq({ items: big }).catch(() => 0)); await Promise.all(ps); return 1;`,
  })),
  // Huge tool names.
  fc.integer({ min: 1e5, max: 8e6 }).map((length) => ({
    kind: 'name',
    code: `const name = 'x'.repeat(${length}); const ps = []; for (let i = 0; i < 50; i++) ps.push(tools[name]({ a: [1, 2, 3] }).catch((e) => e.message.length)); return Math.max(...(await Promise.all(ps)));`,
  })),
  // Slow nested calls outliving a timed-out run_code.
  fc.integer({ min: 1, max: 4 }).map((calls) => ({
    kind: 'timeout',
    code: `await Promise.all(Array.from({ length: ${calls} }, () => slow({}))); return 1;`,
  })),
);

describe('code mode nested calls cost the host bounded work', () => {
  it('keeps the host responsive against unique, concurrent, amplifying, long-name and outliving nested calls', async () => {
    const { codeModeTool } = await import('@tiny/code-mode');
    const { ToolPolicy } = await import('@tiny/tools');
    const uniq = defineTool({
      name: 'uniq',
      description: 'unique items',
      parameters: { type: 'object', properties: { items: { type: 'array', uniqueItems: true } } },
      execute: (args: { items?: unknown[] }) => args.items?.length ?? 0,
    });
    let running = 0;
    let outlived = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'waits for its abort',
      parameters: { type: 'object', properties: {} },
      execute: (_args: unknown, context) =>
        new Promise<string>((resolve) => {
          running += 1;
          context.signal.addEventListener('abort', () => {
            running -= 1;
            resolve('aborted');
          });
        }),
    });
    const baseline = process.memoryUsage().rss;
    let peakRss = baseline;
    let maxGapMs = 0;
    const kinds = new Map<string, number>();
    const runs = Math.max(8, Math.floor(RUNS / 4));
    await fc.assert(
      fc.asyncProperty(nestedClass, async ({ kind, code }) => {
        const codeMode = codeModeTool({ tools: [uniq, slow], limits: { cpuTimeMs: 1000 } });
        const tool =
          kind === 'timeout'
            ? { ...codeMode, policy: ToolPolicy.readOnly().withRuntime({ timeoutMs: 300 }) }
            : codeMode;
        const model = new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'c1')] }, { content: 'done' }],
        });
        const harness = new AgentHarness({ model, tools: [tool], limits: { maxToolCalls: 1000 } });
        let last = performance.now();
        const ticker = setInterval(() => {
          const now = performance.now();
          maxGapMs = Math.max(maxGapMs, now - last);
          last = now;
          peakRss = Math.max(peakRss, process.memoryUsage().rss);
        }, 10);
        try {
          await harness.invoke({}, [{ role: 'user', content: 'go' }]).catch((error: unknown) => {
            // Only the slow class may time run_code out.
            if (kind !== 'timeout') throw error;
          });
        } finally {
          clearInterval(ticker);
        }
        if (running > 0) outlived += 1;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }),
      { numRuns: runs },
    );
    const report = {
      runs,
      outlived,
      maxHostGapMs: Math.round(maxGapMs),
      rssBaselineMiB: Math.round(baseline / MiB),
      rssPeakMiB: Math.round(peakRss / MiB),
      kinds: Object.fromEntries(kinds),
    };
    console.log('code-mode nested host work:', JSON.stringify(report));
    expect(outlived).toBe(0);
    expect(maxGapMs).toBeLessThan(2 * WALL_MS);
    expect(peakRss - baseline).toBeLessThan(768 * MiB);
  });
});
