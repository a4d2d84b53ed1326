import { inspect } from 'node:util';
import { CallDeferredError, completeTool, defineTool, type ToolExecutionContext, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { serializeRunState } from '../deferral/run-state.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { REDACTED, redactionOf, redactValue } from './redaction.js';
import { scrubResult } from './scrub-outcome.js';
import { scrubThrown } from './scrub-value.js';
import { scrubText, secretVariants } from './secret-variants.js';

const KEY = 'sk-live-9f8e7d6c5b4a3210ZZ';

type Execute = (args: { q: string; apiKey: string }, context: ToolExecutionContext) => unknown;

/** Runs one call of a tool the host injects `apiKey` into, and gathers every sink as text. */
async function sinks(execute: Execute, options: { capture?: boolean; fail?: boolean; hostValue?: unknown } = {}) {
  const tool = defineTool({
    name: 'api',
    description: 'Calls an API.',
    parameters: Type.Object({ q: Type.String(), apiKey: Type.Any() }),
    injected: [{ name: 'apiKey', source: 'host' }],
    execute: execute as never,
  });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('api', { q: 'hello' }, 'c1')] }, { content: 'done' }],
  });
  const harness = new AgentHarness({
    model,
    tools: [tool],
    policy: {
      captureToolIo: options.capture ?? true,
      ...(options.fail === true ? {} : { toolErrors: { kind: 'return_error' as const } }),
    },
  });
  const events: AgentEvent[] = [];
  let error: unknown;
  let run: Awaited<ReturnType<typeof harness.invoke>> | undefined;
  try {
    run = await harness.invoke(
      { hostValues: { apiKey: options.hostValue ?? KEY } },
      [{ role: 'user', content: 'go' }],
      {
        onEvent: (event) => events.push(event),
      },
    );
  } catch (thrown) {
    error = thrown;
  }
  return {
    model: JSON.stringify(model.requests),
    events: JSON.stringify(events),
    run: run === undefined ? '' : JSON.stringify(run),
    state: run?.state === undefined ? '' : serializeRunState(run.state),
    error:
      error === undefined
        ? ''
        : `${String(error)}\n${(error as Error).stack}\n${inspect(error, { depth: 40, showHidden: true })}`,
    lastResult: String(model.requests[1]?.messages.at(-1)?.content ?? ''),
  };
}

const clean = (all: Record<string, string>, secret = KEY) =>
  Object.entries(all)
    .filter(([, text]) => text.includes(secret))
    .map(([sink]) => sink);

describe('the tool boundary, whatever shape the value leaves in', () => {
  it('serialises objects that serialise themselves before scrubbing (URL, toJSON, boxed, Buffer) in results', async () => {
    for (const make of [
      (key: string) => ({ u: new URL(`https://api.example/v1?key=${key}`) }),
      (key: string) => {
        class Req {
          #k = key;
          toJSON() {
            return { auth: this.#k };
          }
        }
        return { req: new Req() };
      },
      (key: string) => ToolResult.json({ s: new String(key) as unknown as string }),
      (key: string) => ({ body: Buffer.from(`{"key":"${key}"}`) }),
      (key: string) => ToolResult.success('ok').withStateUpdate({ at: new URL(`https://h/?k=${key}`) } as never),
    ]) {
      expect(clean(await sinks(({ apiKey }) => make(apiKey)))).toEqual([]);
    }
  });

  it('keeps metadata, progress, custom events and deferral metadata serialisable and scrubbed (URL, Date)', async () => {
    const all = await sinks(({ apiKey }, context) => {
      context.reportProgress({ message: 'x', detail: new URL(`https://h/?k=${apiKey}`) } as never);
      context.emit({ k: apiKey, at: new Date(0) } as never);
      return ToolResult.success('ok').withMetadata({ k: apiKey, at: new Date(0), u: new URL('https://h/') } as never);
    });
    expect(clean(all)).toEqual([]);
    expect(all.events).toContain('1970-01-01T00:00:00.000Z');
    const deferred = await sinks(({ apiKey }) => {
      throw new CallDeferredError({
        reason: 'waiting',
        metadata: { u: new URL(`https://h/?k=${apiKey}`), at: new Date(0) },
      });
    });
    expect(deferred.state).not.toBe('');
    expect(clean(deferred)).toEqual([]);
  });

  it('describes a thrown non-error without its secret (toString, URL), in the error, events and the model’s text', async () => {
    for (const fail of [true, false]) {
      const thrown = await sinks(
        ({ apiKey }) => {
          throw {
            toString() {
              return `bad ${apiKey}`;
            },
          };
        },
        { fail },
      );
      expect(clean(thrown)).toEqual([]);
      const url = await sinks(
        ({ apiKey }) => {
          throw new URL(`https://h/?k=${apiKey}`);
        },
        { fail },
      );
      expect(clean(url)).toEqual([]);
    }
  });

  it('keeps the secret out of an error’s cause, AggregateError, proxy, symbols and getters', async () => {
    const all = await sinks(
      ({ apiKey }) => {
        class Leaky extends Error {
          #k = apiKey;
          get detail() {
            return this.#k;
          }
        }
        const hidden = new Proxy(new Error(`inner ${apiKey}`), { ownKeys: () => [] });
        const error = new AggregateError(
          [new Error('x', { cause: { url: new URL(`https://h/?k=${apiKey}`) } }), hidden, new Leaky('l')],
          'many',
        );
        Object.assign(error, { [Symbol(apiKey)]: 1, [Symbol('s')]: apiKey });
        throw error;
      },
      { fail: true },
    );
    expect(all.error).toContain('ToolExecutionError');
    expect(clean(all)).toEqual([]);
  });

  it('checks values deeper than 32 levels (objects and cause chains)', async () => {
    const deep = await sinks(({ apiKey }) => {
      let value: unknown = { k: apiKey };
      for (let level = 0; level < 40; level += 1) value = { n: value };
      return value;
    });
    expect(clean(deep)).toEqual([]);
    const chain = await sinks(
      ({ apiKey }) => {
        let error = new Error(`root ${apiKey}`);
        for (let level = 0; level < 40; level += 1) error = new Error(`wrap ${level}`, { cause: error });
        throw error;
      },
      { fail: true },
    );
    expect(clean(chain)).toEqual([]);
  });

  it('collects secrets from injected values of any kind (class instance, Map, URL)', async () => {
    class Creds {
      constructor(readonly key: string) {}
    }
    const instance = await sinks(({ apiKey }) => `using ${(apiKey as unknown as Creds).key}`, {
      hostValue: new Creds(KEY),
    });
    expect(clean(instance)).toEqual([]);
    const map = await sinks(({ apiKey }) => `using ${(apiKey as unknown as Map<string, string>).get('k')}`, {
      hostValue: new Map([['k', KEY]]),
    });
    expect(clean(map)).toEqual([]);
    const url = await sinks(({ apiKey }) => `using ${(apiKey as unknown as URL).password}`, {
      hostValue: new URL(`https://u:${KEY}@h/`),
    });
    expect(clean(url)).toEqual([]);
  });

  it('scrubs a value split across text blocks, or cut off by the tool or the size limit', async () => {
    const split = await sinks(({ apiKey }) =>
      ToolResult.fromContent([
        { type: 'text', text: `key=${apiKey.slice(0, 5)}` },
        { type: 'text', text: apiKey.slice(5, 10) },
        { type: 'text', text: apiKey.slice(10) },
      ]),
    );
    expect(split.lastResult).not.toContain(KEY.slice(10));
    const cut = await sinks(({ apiKey }) => {
      throw new Error(`401 Unauthorized: key ${apiKey}`.slice(0, 42));
    });
    expect(cut.lastResult).toContain(REDACTED);
    expect(cut.lastResult).not.toContain(KEY.slice(0, 12));
  });
});

describe('encodings and edges', () => {
  it('finds form-encoded, encodeURI, PHP-escaped, upper-case \\u, hex entity, hex and MIME-wrapped base64 echoes', () => {
    const password = 'Tr0ub4dor&3!horse~x(y) é/';
    const variants = secretVariants(password);
    const echoes = [
      new URLSearchParams({ key: password }).toString().slice(4),
      encodeURI(password),
      JSON.stringify(password).slice(1, -1).replaceAll('/', '\\/'),
      'Tr0ub4dor&3!horse~x(y) \\u00E9/',
      password.replace("'", '&#x27;'),
      Buffer.from(password).toString('hex'),
    ];
    for (const echo of echoes) expect(scrubText(`said ${echo} then`, variants)).toBe(`said ${REDACTED} then`);
    const wrapped = Buffer.from(`user:${password}${password}${password}`).toString('base64').replace(/.{20}/g, '$&\n');
    expect(scrubText(wrapped, variants)).toContain(REDACTED);
    expect(scrubText(`x ${"it's"} y`, secretVariants("it's a secret"))).toBe("x it's y");
  });

  it('redacts a long prefix at the end and a long suffix at the start of a text, never a short one', () => {
    const variants = secretVariants(KEY);
    expect(scrubText(`key ${KEY.slice(0, 20)}`, variants)).toBe(`key ${REDACTED}`);
    expect(scrubText(`key ${KEY.slice(0, 20)}...`, variants)).toBe(`key ${REDACTED}...`);
    expect(scrubText(`${KEY.slice(6)} was the key`, variants)).toBe(`${REDACTED} was the key`);
    expect(scrubText(`key ${KEY.slice(0, 7)}`, variants)).toBe(`key ${KEY.slice(0, 7)}`);
    expect(scrubText(`key ${KEY.slice(0, 20)} and more`, variants)).toBe(`key ${KEY.slice(0, 20)} and more`);
  });
});

describe('cut-off and split values found by the fuzzer', () => {
  it('redacts a cut-off value at the end of an error’s message line inside its stack', () => {
    const copy = scrubThrown(new Error(`401: key ${KEY.slice(0, 18)}`), secretVariants(KEY)) as Error;
    expect(copy.message).toBe(`401: key ${REDACTED}`);
    expect(copy.stack).not.toContain(KEY.slice(0, 18));
  });

  it('redacts a value split over text blocks even when each block alone holds a cut-off part of it', () => {
    const secret = ' \u{10000}  \u{10000} \u2063 A\u0300 ';
    const points = Array.from(secret);
    const half = Math.ceil(points.length / 2);
    const result = ToolResult.fromContent([
      { type: 'text', text: `key=${points.slice(0, half).join('')}` },
      { type: 'text', text: points.slice(half).join('') },
    ]);
    const scrubbed = scrubResult(result, secretVariants(secret));
    expect(scrubbed.output()).toBe(`key=${REDACTED}`);
  });
});

describe('sensitive marks through every schema keyword that holds a schema', () => {
  const tool = (parameters: unknown) =>
    redactionOf(
      completeTool(
        defineTool({ name: 't', description: 'd', parameters: Type.Unsafe(parameters as object), execute: () => 'ok' }),
      ) as never,
    );
  const S = { type: 'string', 'x-tiny-sensitive': true };
  it('follows $ref to an $id, to an $anchor, draft-07 dependencies, contains and not', () => {
    expect(
      redactValue(
        { password: 'p' },
        tool({ type: 'object', $defs: { Pw: { $id: 'Pw', ...S } }, properties: { password: { $ref: 'Pw' } } }),
      ),
    ).toEqual({ password: REDACTED });
    expect(
      redactValue(
        { password: 'p' },
        tool({ type: 'object', $defs: { Pw: { $anchor: 'pw', ...S } }, properties: { password: { $ref: '#pw' } } }),
      ),
    ).toEqual({ password: REDACTED });
    expect(
      redactValue(
        { mode: 'x', password: 'p' },
        tool({
          type: 'object',
          properties: { mode: { type: 'string' } },
          dependencies: { mode: { properties: { password: S } }, other: ['mode'] },
        }),
      ),
    ).toEqual({ mode: 'x', password: REDACTED });
    expect(
      redactValue({ list: ['p'] }, tool({ type: 'object', properties: { list: { type: 'array', contains: S } } })),
    ).toEqual({ list: [REDACTED] });
  });
});

describe('streamed and nested calls (capture on)', () => {
  const PW = 'hunter2-Pa55word-XYZ';
  const login = defineTool({
    name: 'login',
    description: 'Logs in.',
    parameters: Type.Object({ password: Type.String({ 'x-tiny-sensitive': true }) }),
    exposure: 'deferred',
    execute: () => 'ok',
  });
  const ping = defineTool({ name: 'ping', description: 'Pings.', parameters: Type.Object({}), execute: () => 'pong' });

  it('streams no argument text of a bridge call or of a call to a name no tool has, and quotes no sensitive value', async () => {
    for (const call of [
      scriptedToolCall('tool_call', { name: 'login', arguments: JSON.stringify({ password: PW }) }, 'c1'),
      scriptedToolCall('tool_call', { name: 'logn', arguments: { password: PW } }, 'c1'),
      scriptedToolCall('logni', { password: PW }, 'c1'),
    ]) {
      const model = new ScriptedModel({ steps: [{ toolCalls: [call] }, { content: 'done' }], chunkSize: 5 });
      const tools = call.name === 'logni' ? [defineTool({ ...login, exposure: 'direct' }), ping] : [login, ping];
      const harness = new AgentHarness({
        model,
        tools,
        policy: { captureToolIo: true, toolErrors: { kind: 'return_error' } },
      });
      const events: AgentEvent[] = [];
      for await (const event of harness.stream({}, 'go')) events.push(event);
      expect(JSON.stringify(events)).not.toContain(PW);
    }
  });

  it('keeps a calling tool’s secret out of its nested call’s events and out of what the program receives', async () => {
    const child = defineTool({
      name: 'child',
      description: 'Echoes.',
      parameters: Type.Object({ q: Type.String() }),
      execute: ({ q }) => ({ saw: new URL(`https://h/?q=${q}`) }) as never,
    });
    let received = '';
    const parent = defineTool({
      name: 'parent',
      description: 'Calls child.',
      parameters: Type.Object({ apiKey: Type.String() }),
      injected: [{ name: 'apiKey', source: 'host' }],
      nestedTools: [child],
      execute: async ({ apiKey }, context) => {
        const result = await context.callTool?.('child', { q: apiKey });
        received = result?.output() ?? '';
        // A program that launders what it got: reversed, it would no longer look like the key.
        return [...received].reverse().join('');
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('parent', {}, 'p1')] }, { content: 'done' }],
    });
    const events: AgentEvent[] = [];
    await new AgentHarness({ model, tools: [parent], policy: { captureToolIo: true } }).invoke(
      { hostValues: { apiKey: KEY } },
      [{ role: 'user', content: 'go' }],
      { onEvent: (event) => events.push(event) },
    );
    expect(received).toContain(REDACTED);
    expect(received).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(model.requests)).not.toContain([...KEY].reverse().join(''));
  });
});
