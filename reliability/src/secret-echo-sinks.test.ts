import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { codeModeTool } from '@tiny/code-mode';
import { type AgentEvent, AgentHarness, REDACTED, serializeRunState } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { createOtelListener } from '@tiny/otel';
import { CallDeferredError, defineTool, type ToolExecutionContext, ToolResult } from '@tiny/tools';
import { renderTraceHtml } from '@tiny/trace';
import fc from 'fast-check';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

// The OTel SDK the otel package tests with (its in-memory exporter), resolved from that package.
const otelRequire = createRequire(new URL('../../packages/otel/package.json', import.meta.url));
interface FinishedSpan {
  readonly name: string;
  readonly attributes: unknown;
  readonly status: unknown;
  readonly events: unknown;
}
interface OtelSdk {
  InMemorySpanExporter: new () => { getFinishedSpans(): FinishedSpan[]; reset(): void };
  SimpleSpanProcessor: new (exporter: unknown) => unknown;
  BasicTracerProvider: new (options: {
    spanProcessors: unknown[];
  }) => {
    getTracer(name: string): Parameters<typeof createOtelListener>[0]['tracer'];
  };
}
const sdk = (await import(pathToFileURL(otelRequire.resolve('@opentelemetry/sdk-trace-base')).href)) as OtelSdk;
const exporter = new sdk.InMemorySpanExporter();
const provider = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('secret-echo-sinks');

const RUNS = Number(process.env.SECRET_ECHO_RUNS ?? propertyRuns(600));
const PROGRAM_RUNS = Number(process.env.SECRET_ECHO_PROGRAM_RUNS ?? propertyRuns(60));
const NESTED_RUNS = Number(process.env.SECRET_ECHO_NESTED_RUNS ?? propertyRuns(200));

/** Characters no harness text holds, so a match in a sink can only be the secret. */
const RARE = ['\u2063', '§', '🔑', 'ǅ', '\u0007'];
const META = ['.*+?^$', '{}()|[]', '\\/%&<>"\'=:'].join('').split('');
const bodyArb = fc.oneof(
  fc.string({ minLength: 3, maxLength: 20 }),
  fc.string({ minLength: 3, maxLength: 12, unit: 'grapheme' }),
  fc.string({ minLength: 3, maxLength: 12, unit: fc.constantFrom(...META) }),
);
/** A secret of 4+ characters: arbitrary text (unicode, regex metacharacters) with one rare character in it. */
const secretArb = fc.tuple(bodyArb, fc.constantFrom(...RARE), fc.nat()).map(([body, rare, at]) => {
  const points = Array.from(body);
  const cut = at % (points.length + 1);
  return `${points.slice(0, cut).join('')}${rare}${points.slice(cut).join('')}`;
});

const ECHOES = [
  'message',
  'url',
  'json',
  'double-json',
  'cause',
  'aggregate',
  'custom',
  'basic',
  'result',
  'result-json',
  'metadata',
  // Values that serialise themselves, thrown non-errors, deep values, binary, more encodings.
  'url-object',
  'to-json',
  'boxed',
  'thrown-object',
  'thrown-url',
  'deep',
  'deep-cause',
  'buffer',
  'dated-metadata',
  'progress-url',
  'emit-url',
  'deferred-metadata',
  'form-encoded',
  'wrapped-base64',
  'split-blocks',
  'truncated',
] as const;
type Echo = (typeof ECHOES)[number];

/** The first three quarters of a secret (8 characters at least): what a cut-off echo leaves. */
const cutOff = (secret: string) => {
  const points = Array.from(secret);
  return points.slice(0, Math.max(8, Math.ceil(points.length * 0.75))).join('');
};

function echo(kind: Echo, secret: string, context?: ToolExecutionContext): ToolResult {
  const url = `https://api.example/v1?key=${encodeURIComponent(secret)}`;
  switch (kind) {
    case 'url-object':
      return { u: new URL(url) } as never;
    case 'to-json': {
      class Request {
        #key = secret;
        toJSON() {
          return { auth: this.#key };
        }
      }
      return { request: new Request() } as never;
    }
    case 'boxed':
      return ToolResult.json({ s: new String(secret) as unknown as string });
    case 'thrown-object':
      throw {
        toString() {
          return `bad ${secret}`;
        },
      };
    case 'thrown-url':
      throw new URL(url);
    case 'deep': {
      let value: unknown = { key: secret };
      for (let level = 0; level < 40; level += 1) value = { n: value };
      return value as never;
    }
    case 'deep-cause': {
      let error = new Error(`root ${secret}`);
      for (let level = 0; level < 40; level += 1) error = new Error(`wrap ${level}`, { cause: error });
      throw error;
    }
    case 'buffer':
      return { body: Buffer.from(JSON.stringify({ key: secret })) } as never;
    case 'dated-metadata':
      return ToolResult.success('ok').withMetadata({ key: secret, at: new Date(0), u: new URL(url) } as never);
    case 'progress-url':
      context?.reportProgress({ message: 'working', detail: new URL(url) } as never);
      return ToolResult.success('ok');
    case 'emit-url':
      context?.emit({ u: new URL(url), at: new Date(0) } as never);
      return ToolResult.success('ok');
    case 'deferred-metadata':
      throw new CallDeferredError({ reason: 'waiting', metadata: { u: new URL(url), at: new Date(0) } });
    case 'form-encoded':
      throw new Error(`GET /?${new URLSearchParams({ key: secret })} -> 401`);
    case 'wrapped-base64':
      return ToolResult.success(Buffer.from(`user:${secret}`).toString('base64').replace(/.{8}/g, '$&\r\n'));
    case 'split-blocks': {
      const points = Array.from(secret);
      const half = Math.ceil(points.length / 2);
      return ToolResult.fromContent([
        { type: 'text', text: `key=${points.slice(0, half).join('')}` },
        { type: 'text', text: points.slice(half).join('') },
      ]);
    }
    case 'truncated':
      throw new Error(`401 Unauthorized: key ${cutOff(secret)}`);
    case 'message':
      throw new Error(`upstream rejected ${secret}`);
    case 'url':
      throw new Error(`GET ${url} -> 401`);
    case 'json':
      throw new Error(`body ${JSON.stringify({ auth: { key: secret } })}`);
    case 'double-json':
      throw new Error(JSON.stringify({ error: JSON.stringify({ key: secret }) }));
    case 'cause':
      throw new Error('call failed', { cause: new Error('auth', { cause: new TypeError(`bad key ${secret}`) }) });
    case 'aggregate':
      throw new AggregateError([new Error(`one ${secret}`), { detail: secret }], 'all attempts failed');
    case 'custom':
      throw Object.assign(new Error('request failed'), { request: { headers: { authorization: `Bearer ${secret}` } } });
    case 'basic':
      throw new Error(`Authorization: Basic ${Buffer.from(`user:${secret}`).toString('base64')}`);
    case 'result':
      return ToolResult.success(`fetched ${url} with ${secret}`);
    case 'result-json':
      return ToolResult.json({ ok: true, debug: { request: [{ url, key: secret }] } });
    case 'metadata':
      return ToolResult.success('ok').withMetadata({ key: secret });
  }
}

/**
 * What else counts as a leak for an echo that never holds the whole secret: the half of a split
 * secret holding its rare character (secrets of 8+ characters, see `scrubText`), and a cut-off
 * prefix (secrets of 12+ characters: the documented edge policy).
 */
function partialForms(kind: Echo, secret: string): string[] {
  if (kind === 'split-blocks' && secret.length >= 8) {
    const points = Array.from(secret);
    const half = Math.ceil(points.length / 2);
    const parts = [points.slice(0, half).join(''), points.slice(half).join('')];
    return parts.filter((part) => RARE.some((rare) => part.includes(rare)) && part.length >= 4);
  }
  if (kind === 'truncated' && secret.length >= 12) {
    const prefix = cutOff(secret);
    return [prefix, JSON.stringify(prefix).slice(1, -1)];
  }
  return [];
}

/** The forms the tools above write a secret in; a sink holding any of them leaks. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    json,
    JSON.stringify(json).slice(1, -1),
    encodeURIComponent(secret),
    new URLSearchParams({ k: secret }).toString().slice(2),
    Buffer.from(secret).toString('hex'),
    // Inside a base64 blob a value is searched from 7 UTF-8 bytes on (documented in the harness).
    ...(Buffer.byteLength(secret) >= 7 ? [Buffer.from(`user:${secret}`).toString('base64')] : []),
    secret.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`),
  ].filter((form) => form.length >= 4);
}
const htmlEscape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/** Every string an error carries: message, stack, cause chain, `errors`, custom properties. */
function deepText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || seen.has(value)) return String(value);
  seen.add(value);
  const parts = Reflect.ownKeys(value).map(
    (key) => `${String(key)}=${deepText((value as Record<string | symbol, unknown>)[key], seen)}`,
  );
  if (value instanceof Error) parts.push(value.message, value.stack ?? '', String(value));
  return parts.join('\n');
}

function spanText(): string {
  return JSON.stringify(
    exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
    })),
  );
}

interface Sinks {
  readonly [name: string]: string;
}

function leaksIn(sinks: Sinks, secret: string, kind?: Echo): string[] {
  const found: string[] = [];
  const all = [...forms(secret), ...(kind === undefined ? [] : partialForms(kind, secret))].filter(
    (form) => form.length >= 4,
  );
  for (const [name, text] of Object.entries(sinks)) {
    const checked = name === 'trace_html' ? [...all, ...all.map(htmlEscape)] : all;
    for (const form of checked) if (text.includes(form)) found.push(`${name}: ${JSON.stringify(form)}`);
  }
  return found;
}

let sinkChecks = 0;
let leakCount = 0;

async function runAndCollect(options: {
  readonly secret: string;
  readonly kind: Echo;
  readonly origin: 'host' | 'sensitive';
  readonly capture: boolean;
  readonly fail: boolean;
}): Promise<Sinks> {
  const { secret, kind, origin, capture, fail } = options;
  const tool =
    origin === 'host'
      ? defineTool({
          name: 'fetch_data',
          description: 'Fetches data.',
          parameters: Type.Object({ q: Type.String(), apiKey: Type.String() }),
          injected: [{ name: 'apiKey', source: 'host' }],
          execute: ({ apiKey }, context) => echo(kind, apiKey, context),
        })
      : defineTool({
          name: 'fetch_data',
          description: 'Fetches data.',
          parameters: Type.Object({ q: Type.String(), apiKey: Type.String({ 'x-tiny-sensitive': true }) }),
          execute: ({ apiKey }, context) => echo(kind, apiKey, context),
        });
  const args = origin === 'host' ? { q: 'x' } : { q: 'x', apiKey: secret };
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('fetch_data', args, 'c1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({
    model,
    tools: [tool],
    policy: { captureToolIo: capture, toolErrors: fail ? { kind: 'fail' } : { kind: 'return_error' } },
  });
  exporter.reset();
  const otel = createOtelListener({ tracer, captureContent: true, maxContentLength: 100_000 });
  const events: AgentEvent[] = [];
  const outcome = await harness
    .invoke({ hostValues: { apiKey: secret, region: 'eu' } }, [{ role: 'user', content: 'go' }], {
      onEvent: (event) => {
        events.push(event);
        otel(event);
      },
    })
    .then(
      (run) => ({ run }),
      (error: unknown) => ({ error }),
    );
  // The model wrote a sensitive value itself: only what came back to it (tool rows) must not hold it.
  const requests =
    origin === 'host'
      ? JSON.stringify(model.requests)
      : JSON.stringify(model.requests.map((request) => request.messages.filter((message) => message.role === 'tool')));
  return {
    model_request: requests,
    events: JSON.stringify(events),
    otel_spans: spanText(),
    trace_html: renderTraceHtml('run' in outcome ? outcome.run : events),
    thrown_error: 'error' in outcome ? deepText(outcome.error) : '',
    // The state saved for a resume holds the model's own arguments (a sensitive value it wrote).
    run_state:
      'run' in outcome && origin === 'host' && outcome.run.state !== undefined
        ? serializeRunState(outcome.run.state)
        : '',
    run_result:
      'run' in outcome
        ? JSON.stringify({
            ...outcome.run,
            state: undefined,
            // A pending call's arguments are the model's own (a sensitive value it wrote).
            deferred:
              origin === 'host'
                ? outcome.run.deferred
                : outcome.run.deferred && {
                    ...outcome.run.deferred,
                    calls: outcome.run.deferred.calls.map((call) => ({ ...call, arguments: undefined })),
                    approvals: outcome.run.deferred.approvals.map((call) => ({ ...call, arguments: undefined })),
                  },
            messages:
              origin === 'host'
                ? outcome.run.messages
                : outcome.run.messages.filter((message) => message.role !== 'assistant'),
          })
        : '',
  };
}

describe(`secrets a tool echoes never reach a sink (${RUNS} random cases, ${PROGRAM_RUNS} programs)`, () => {
  it('host-injected and sensitive values, echoed raw, URL-encoded, JSON-escaped, base64, nested: 0 leaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        fc.constantFrom(...ECHOES),
        fc.constantFrom('host', 'sensitive') as fc.Arbitrary<'host' | 'sensitive'>,
        fc.boolean(),
        fc.boolean(),
        async (secret, kind, origin, capture, fail) => {
          const sinks = await runAndCollect({ secret, kind, origin, capture, fail });
          const found = leaksIn(sinks, secret, kind);
          sinkChecks += Object.keys(sinks).length;
          leakCount += found.length;
          expect(found).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a code-mode program gets host values a nested tool echoes, and its own sensitive literals, only as [redacted]', async () => {
    await fc.assert(
      fc.asyncProperty(
        secretArb,
        fc.constantFrom(...ECHOES),
        fc.boolean(),
        fc.constantFrom('host', 'sensitive') as fc.Arbitrary<'host' | 'sensitive'>,
        async (secret, kind, capture, origin) => {
          const inner =
            origin === 'host'
              ? defineTool({
                  name: 'fetch_data',
                  description: 'Fetches data.',
                  parameters: Type.Object({ apiKey: Type.String() }),
                  injected: [{ name: 'apiKey', source: 'host' }],
                  execute: ({ apiKey }, context: ToolExecutionContext) => echo(kind, apiKey, context),
                })
              : defineTool({
                  name: 'fetch_data',
                  description: 'Fetches data.',
                  parameters: Type.Object({ apiKey: Type.String({ 'x-tiny-sensitive': true }) }),
                  execute: ({ apiKey }, context) => echo(kind, apiKey, context),
                });
          // A sensitive value is written into the program by the model; a host value never is.
          const call = origin === 'host' ? 'fetch_data({})' : `fetch_data({ apiKey: ${JSON.stringify(secret)} })`;
          const code = `let out; try { out = await ${call}; } catch (e) { out = String(e); } console.log(JSON.stringify(out)); return out;`;
          const model = new ScriptedModel({
            steps: [{ toolCalls: [scriptedToolCall('run_code', { code }, 'p1')] }, { content: 'done' }],
          });
          const harness = new AgentHarness({
            model,
            tools: [codeModeTool({ tools: [inner] })],
            policy: { captureToolIo: capture, toolErrors: { kind: 'return_error' } },
          });
          const events: AgentEvent[] = [];
          const run = await harness.invoke({ hostValues: { apiKey: secret } }, [{ role: 'user', content: 'go' }], {
            onEvent: (event) => events.push(event),
          });
          const toolRows = (messages: readonly { role: string }[]) =>
            messages.filter((message) => message.role === 'tool');
          const sinks = {
            program_output: JSON.stringify(toolRows(run.messages)),
            model_request: JSON.stringify(
              origin === 'host' ? model.requests : model.requests.map((request) => toolRows(request.messages)),
            ),
            events: JSON.stringify(events),
          };
          const found = leaksIn(sinks, secret, kind);
          sinkChecks += Object.keys(sinks).length;
          leakCount += found.length;
          expect(found).toEqual([]);
        },
      ),
      { numRuns: PROGRAM_RUNS },
    );
  });

  it('a tool passing its host value to a nested call: not in the nested call’s events, nor in what it gets back', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, fc.constantFrom(...ECHOES), async (secret, kind) => {
        const child = defineTool({
          name: 'child',
          description: 'Echoes.',
          parameters: Type.Object({ q: Type.String() }),
          execute: ({ q }, context) => echo(kind, q, context),
        });
        let received = '';
        const parent = defineTool({
          name: 'parent',
          description: 'Calls child.',
          parameters: Type.Object({ apiKey: Type.String() }),
          injected: [{ name: 'apiKey', source: 'host' }],
          nestedTools: [child],
          execute: async ({ apiKey }, context) => {
            try {
              received = (await context.callTool?.('child', { q: apiKey }))?.output() ?? '';
            } catch (error) {
              received = deepText(error);
            }
            return 'done';
          },
        });
        const model = new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'done' }],
        });
        const events: AgentEvent[] = [];
        const harness = new AgentHarness({ model, tools: [parent], policy: { captureToolIo: true } });
        await harness.invoke({ hostValues: { apiKey: secret } }, [{ role: 'user', content: 'go' }], {
          onEvent: (event) => events.push(event),
        });
        const sinks = {
          nested_events: JSON.stringify(events),
          nested_result: received,
          model_request: JSON.stringify(model.requests),
        };
        const found = leaksIn(sinks, secret, kind);
        sinkChecks += Object.keys(sinks).length;
        leakCount += found.length;
        expect(found).toEqual([]);
      }),
      { numRuns: NESTED_RUNS },
    );
  });

  it('host values under four characters are left alone (documented policy): text stays whole', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 3 }), async (short) => {
        const tool = defineTool({
          name: 'count',
          description: 'Counts.',
          parameters: Type.Object({ unit: Type.String() }),
          injected: [{ name: 'unit', source: 'host' }],
          execute: ({ unit }) => `counted 42 items (${unit.length})`,
        });
        const model = new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('count', {}, 'c1')] }, { content: 'done' }],
        });
        await new AgentHarness({ model, tools: [tool] }).invoke({ hostValues: { unit: short } }, [
          { role: 'user', content: 'go' },
        ]);
        const tool_rows = JSON.stringify(model.requests.at(-1)?.messages.filter((message) => message.role === 'tool'));
        expect(tool_rows).toContain(`counted 42 items (${short.length})`);
        expect(tool_rows).not.toContain(REDACTED);
      }),
      { numRuns: propertyRuns(50) },
    );
    // The figure for the report.
    console.log(`secret-echo-sinks: ${leakCount} leaks in ${sinkChecks} sink checks`);
    expect(leakCount).toBe(0);
  });
});

const FAIL_CLOSED_RUNS = Number(process.env.SECRET_ECHO_FAIL_CLOSED_RUNS ?? propertyRuns(60));
let closedChecks = 0;
let closedLeaks = 0;

/** One run of `tools` on the model's `calls`, capture on, with every sink the harness writes as text. */
async function sinksOf(options: {
  readonly tools: readonly ReturnType<typeof defineTool>[];
  readonly calls: readonly ReturnType<typeof scriptedToolCall>[];
  readonly hostValues?: Record<string, unknown>;
  readonly fail?: boolean;
  readonly invalidArgs?: 'normalize_then_return_tool_error' | 'return_tool_error';
  readonly stream?: boolean;
}): Promise<Sinks> {
  const model = new ScriptedModel({ chunkSize: 7, steps: [{ toolCalls: [...options.calls] }, { content: 'done' }] });
  const harness = new AgentHarness({
    model,
    tools: [...options.tools],
    policy: {
      captureToolIo: true,
      toolErrors: options.fail === true ? { kind: 'fail' } : { kind: 'return_error' },
      ...(options.invalidArgs === undefined ? {} : { invalidArgs: options.invalidArgs }),
    },
  });
  exporter.reset();
  const otel = createOtelListener({ tracer, captureContent: true, maxContentLength: 100_000 });
  const events: AgentEvent[] = [];
  const onEvent = (event: AgentEvent) => {
    events.push(event);
    otel(event);
  };
  let thrown: unknown;
  if (options.stream === true) {
    const stream = harness.stream({ hostValues: options.hostValues ?? {} }, 'go', { onEvent });
    try {
      for await (const _ of stream);
      await stream.result;
    } catch (error) {
      thrown = error;
    }
  } else
    await harness.invoke({ hostValues: options.hostValues ?? {} }, [{ role: 'user', content: 'go' }], { onEvent }).then(
      () => undefined,
      (error: unknown) => {
        thrown = error;
      },
    );
  // The model's own tool calls (in later requests) hold what it wrote: only tool rows are checked.
  return {
    model_request:
      options.hostValues === undefined
        ? JSON.stringify(model.requests.map((request) => request.messages.filter((message) => message.role === 'tool')))
        : JSON.stringify(model.requests),
    events: JSON.stringify(events),
    otel_spans: spanText(),
    trace_html: renderTraceHtml(events),
    thrown_error: thrown === undefined ? '' : deepText(thrown),
  };
}

function checkForms(sinks: Sinks, secretForms: readonly string[]): string[] {
  const found: string[] = [];
  for (const [name, text] of Object.entries(sinks))
    for (const form of secretForms) if (form.length >= 8 && text.includes(form)) found.push(`${name}: ${form}`);
  closedChecks += Object.keys(sinks).length;
  closedLeaks += found.length;
  return found;
}

const PASSWORD_FIELD = { 'x-tiny-sensitive': true, type: 'string' } as const;
const loginTool = defineTool({
  name: 'login',
  description: 'Logs in.',
  parameters: Type.Object({ user: Type.String(), password: Type.Unsafe<string>(PASSWORD_FIELD) }),
  execute: ({ user }) => `ok ${user}`,
});
const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: Type.Object({ s: Type.String() }),
  execute: ({ s }) => s,
});
/** A password of 8+ characters with a rare character in it (so a match can only be the password). */
const passwordArb = fc
  .tuple(
    fc.string({ minLength: 8, maxLength: 24, unit: fc.constantFrom(...'abcXYZ0189-_.'.split('')) }),
    fc.constantFrom(...RARE),
  )
  .map(([body, rare]) => `${body.slice(0, 4)}${rare}${body.slice(4)}`);

describe(`fail-closed secret classes (${FAIL_CLOSED_RUNS} random cases each)`, () => {
  it('binary host keys written as hex, upper hex, base64 or base64url: 0 leaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 8, maxLength: 48 }),
        fc.constantFrom('buffer', 'uint8array', 'arraybuffer'),
        fc.constantFrom('hex', 'HEX', 'base64', 'base64url'),
        fc.boolean(),
        async (bytes, holder, encoding, fail) => {
          const raw = Buffer.from(bytes);
          const value =
            holder === 'buffer' ? raw : holder === 'uint8array' ? new Uint8Array(raw) : new Uint8Array(raw).buffer;
          const write = (key: unknown) => {
            const buffer = Buffer.from(key instanceof ArrayBuffer ? new Uint8Array(key) : (key as Uint8Array));
            return encoding === 'HEX'
              ? buffer.toString('hex').toUpperCase()
              : buffer.toString(encoding as BufferEncoding);
          };
          const tool = defineTool({
            name: 'api',
            description: 'Calls an API.',
            parameters: Type.Object({ q: Type.String(), apiKey: Type.Any() }),
            injected: [{ name: 'apiKey', source: 'host' }],
            execute: ({ apiKey }) => {
              if (fail) throw new Error(`auth failed key=${write(apiKey)}`);
              return `key=${write(apiKey)}`;
            },
          });
          const sinks = await sinksOf({
            tools: [tool],
            calls: [scriptedToolCall('api', { q: 'x' }, 'c1')],
            hostValues: { apiKey: value },
            fail,
          });
          const secretForms = [
            raw.toString('hex'),
            raw.toString('hex').toUpperCase(),
            raw.toString('base64').replace(/=+$/, ''),
            raw.toString('base64url'),
          ];
          expect(checkForms(sinks, secretForms)).toEqual([]);
        },
      ),
      { numRuns: FAIL_CLOSED_RUNS },
    );
  });

  it('multi-line secrets re-joined with CRLF, spaces, tabs or nothing, or quoted one line: 0 leaks', async () => {
    const lineArb = fc
      .string({
        minLength: 8,
        maxLength: 64,
        unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('')),
      })
      // A key body line mixes cases and digits, as base64 of random bytes does: a line such as
      // `rguments` would also be found in the harness's own words, which no scrubber may remove.
      .filter((line) => /[0-9]/.test(line) && /[A-Z]/.test(line) && /[a-z]/.test(line));
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArb, { minLength: 2, maxLength: 5 }),
        fc.constantFrom('\r\n', ' ', '\t', '', 'line'),
        fc.boolean(),
        async (lines, joiner, fail) => {
          const key = ['-----BEGIN PRIVATE KEY-----', ...lines, '-----END PRIVATE KEY-----'].join('\n');
          const tool = defineTool({
            name: 'api',
            description: 'Calls an API.',
            parameters: Type.Object({ q: Type.String(), apiKey: Type.String() }),
            injected: [{ name: 'apiKey', source: 'host' }],
            execute: ({ apiKey }) => {
              const text = joiner === 'line' ? `line 2: ${apiKey.split('\n')[2]}` : apiKey.split('\n').join(joiner);
              if (fail) throw new Error(`bad key ${text}`);
              return `loaded ${text}`;
            },
          });
          const sinks = await sinksOf({
            tools: [tool],
            calls: [scriptedToolCall('api', { q: 'x' }, 'c1')],
            hostValues: { apiKey: key },
            fail,
          });
          // The body lines (random); the BEGIN/END lines are public text.
          expect(checkForms(sinks, lines)).toEqual([]);
        },
      ),
      { numRuns: FAIL_CLOSED_RUNS },
    );
  });

  it('captured arguments that did not validate (envelopes, JSON strings, wrong types, unknown tools, deep names): 0 leaks', async () => {
    const shapeArb = fc.constantFrom(
      'envelope',
      'json-string',
      'envelope-invalid',
      'wrong-type',
      'deep-name',
      'fenced',
    );
    await fc.assert(
      fc.asyncProperty(
        passwordArb,
        shapeArb,
        fc.constantFrom('login', 'logon'),
        fc.constantFrom('normalize_then_return_tool_error', 'return_tool_error') as fc.Arbitrary<
          'normalize_then_return_tool_error' | 'return_tool_error'
        >,
        async (password, shape, name, invalidArgs) => {
          const inner = { user: 'bob', password };
          const args = {
            envelope: { arguments: inner },
            'json-string': { creds: JSON.stringify(inner) },
            'envelope-invalid': { arguments: { user: 5, password } },
            'wrong-type': { user: 'bob', password: { value: password } },
            'deep-name': { user: 'bob', extra: { nested: [{ Password: password }] } },
            fenced: { payload: `\`\`\`json\n${JSON.stringify(inner)}\n\`\`\`` },
          }[shape];
          const sinks = await sinksOf({
            tools: [loginTool, echoTool],
            calls: [scriptedToolCall(name, args as never, 'c1')],
            invalidArgs,
          });
          // The answer to the model may quote what the model itself sent: the records must not.
          const { model_request: _ownArguments, ...records } = sinks;
          expect(checkForms(records, [password, JSON.stringify(password).slice(1, -1)])).toEqual([]);
        },
      ),
      { numRuns: FAIL_CLOSED_RUNS },
    );
  });

  it('schemas past the walk’s limits (recursion, 32+ levels, 256+ paths) redact the rest: 0 leaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        passwordArb,
        fc.constantFrom('recursive', 'nested', 'many'),
        fc.integer({ min: 1, max: 8 }),
        async (password, kind, size) => {
          let parameters: Record<string, unknown>;
          let args: Record<string, unknown>;
          if (kind === 'recursive') {
            parameters = {
              type: 'object',
              properties: { root: { $ref: '#/$defs/Node' } },
              $defs: {
                Node: { type: 'object', properties: { secret: PASSWORD_FIELD, child: { $ref: '#/$defs/Node' } } },
              },
            };
            let node: Record<string, unknown> = { secret: password };
            for (let level = 0; level < size; level += 1) node = { secret: `level-${level}`, child: node };
            args = { root: node };
          } else if (kind === 'nested') {
            let schema: Record<string, unknown> = { ...PASSWORD_FIELD };
            for (let level = 0; level < 28 + size; level += 1) schema = { allOf: [schema] };
            parameters = { type: 'object', properties: { pw: schema } };
            args = { pw: password };
          } else {
            const properties: Record<string, unknown> = {};
            for (let index = 0; index < 250 + size; index += 1) properties[`f${index}`] = PASSWORD_FIELD;
            parameters = { type: 'object', properties };
            args = { [`f${249 + size}`]: password };
          }
          const tool = defineTool({
            name: 'store',
            description: 'Stores.',
            parameters: Type.Unsafe<Record<string, unknown>>(parameters),
            execute: () => 'stored',
          });
          const sinks = await sinksOf({ tools: [tool], calls: [scriptedToolCall('store', args, 'c1')] });
          expect(checkForms(sinks, [password])).toEqual([]);
        },
      ),
      { numRuns: FAIL_CLOSED_RUNS },
    );
  });

  it('streamed argument deltas under reused call ids never carry a sensitive tool’s arguments: 0 leaks', async () => {
    await fc.assert(
      fc.asyncProperty(
        passwordArb,
        fc.array(fc.tuple(fc.constantFrom('echo', 'login'), fc.constantFrom('c1', 'c2', '')), {
          minLength: 1,
          maxLength: 4,
        }),
        async (password, plan) => {
          const calls = plan.map(([tool, id]) =>
            tool === 'echo'
              ? scriptedToolCall('echo', { s: 'hello' }, id)
              : scriptedToolCall('login', { user: 'bob', password }, id),
          );
          const sinks = await sinksOf({ tools: [loginTool, echoTool], calls, stream: true });
          // Here the events hold only harness output (a streamed delta is the only way in).
          expect(checkForms({ events: sinks.events ?? '' }, [password])).toEqual([]);
        },
      ),
      { numRuns: FAIL_CLOSED_RUNS },
    );
    console.log(`secret-echo-sinks fail-closed: ${closedLeaks} leaks in ${closedChecks} sink checks`);
    expect(closedLeaks).toBe(0);
  });
});
