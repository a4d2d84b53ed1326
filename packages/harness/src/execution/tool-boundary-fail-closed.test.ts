import { createHash } from 'node:crypto';
import { completeTool, defineTool } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { REDACTED, redactionOf, redactValue } from './redaction.js';

const PW = 'hunter2-Sup3rSecretPw-777';

/** Runs one call of a tool the host injects `apiKey` into; the model's next request and every event as text. */
async function hostRun(hostValue: unknown, execute: (apiKey: never) => string) {
  const tool = defineTool({
    name: 'api',
    description: 'Calls an API.',
    parameters: Type.Object({ q: Type.String(), apiKey: Type.Any() }),
    injected: [{ name: 'apiKey', source: 'host' }],
    execute: ({ apiKey }) => execute(apiKey as never),
  });
  const model = new ScriptedModel({
    steps: [{ toolCalls: [scriptedToolCall('api', { q: 'hello' }, 'c1')] }, { content: 'done' }],
  });
  const events: AgentEvent[] = [];
  const harness = new AgentHarness({
    model,
    tools: [tool],
    policy: { captureToolIo: true, toolErrors: { kind: 'return_error' } },
  });
  await harness.invoke({ hostValues: { apiKey: hostValue } }, [{ role: 'user', content: 'go' }], {
    onEvent: (event) => events.push(event),
  });
  return `${JSON.stringify(model.requests[1])}\n${JSON.stringify(events)}`;
}

const login = defineTool({
  name: 'login',
  description: 'Log in.',
  parameters: Type.Object({ user: Type.String(), password: Type.String({ 'x-tiny-sensitive': true }) }),
  execute: ({ user }) => `ok ${user}`,
});
const nestedLogin = defineTool({
  name: 'login',
  description: 'Log in.',
  parameters: Type.Object({
    creds: Type.Object({ user: Type.String(), password: Type.String({ 'x-tiny-sensitive': true }) }),
  }),
  execute: ({ creds }) => `ok ${creds.user}`,
});
const echo = defineTool({
  name: 'echo',
  description: 'Echo.',
  parameters: Type.Object({ s: Type.String() }),
  execute: ({ s }) => s,
});

/** The events of one run with capture on, as text, the model sending `call` first. */
async function capturedEvents(tools: never[], call: ReturnType<typeof scriptedToolCall>) {
  const model = new ScriptedModel({ steps: [{ toolCalls: [call] }, { content: 'done' }] });
  const events: AgentEvent[] = [];
  await new AgentHarness({
    model,
    tools,
    policy: { captureToolIo: true, invalidArgs: 'normalize_then_return_tool_error' },
  }).invoke({}, [{ role: 'user', content: 'go' }], { onEvent: (event) => events.push(event) });
  return { events, text: JSON.stringify(events) };
}

describe('binary host values', () => {
  const RAW = createHash('sha256').update('k').digest();
  for (const [label, form] of [
    ['hex', (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')],
    ['upper-case hex', (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase()],
    ['base64', (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')],
    ['base64url', (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')],
    [
      'base64 inside a longer blob',
      (bytes: Uint8Array) => Buffer.concat([Buffer.from('x:'), bytes]).toString('base64'),
    ],
  ] as const) {
    for (const value of [RAW, new Uint8Array(RAW), RAW.buffer.slice(RAW.byteOffset, RAW.byteOffset + RAW.byteLength)]) {
      it(`are scrubbed when a tool writes them as ${label} (${value.constructor.name})`, async () => {
        const text = await hostRun(value, () => `key=${form(RAW)}`);
        const core = label.includes('blob') ? form(RAW).slice(4, 40) : form(RAW);
        expect(text).not.toContain(core);
        expect(text).toContain(`key=${label.includes('blob') ? '' : REDACTED}`);
      });
    }
  }
});

describe('multi-line secrets', () => {
  const BODY = [
    'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7',
    'QWERTYuiopASDFGHjklZXCVBNMqwertyuiopasdfghjklzxcvbn',
  ];
  const PEM = ['-----BEGIN PRIVATE KEY-----', ...BODY, '-----END PRIVATE KEY-----'].join('\n');
  for (const [label, rewrite] of [
    ['CRLF', (key: string) => key.replace(/\n/g, '\r\n')],
    ['spaces', (key: string) => key.replace(/\n/g, ' ')],
    ['nothing', (key: string) => key.replace(/\n/g, '')],
    ['one body line', () => `line 2: ${BODY[1]}`],
  ] as const) {
    it(`keep every long line out when a tool joins them with ${label}`, async () => {
      const text = await hostRun(PEM, (key: string) => `loaded ${rewrite(key)}`);
      for (const line of BODY) expect(text).not.toContain(line);
    });
  }
});

describe('captured arguments that did not validate', () => {
  it('are redacted after unwrapping an envelope the admission repairs', async () => {
    const { text, events } = await capturedEvents(
      [login as never],
      scriptedToolCall('login', { arguments: { user: 'bob', password: PW } }, 'c1'),
    );
    expect(events.some((event) => event.type === 'invalid_tool_args')).toBe(true);
    expect(text).not.toContain(PW);
  });

  it('are redacted inside an object sent as a JSON string', async () => {
    const { text } = await capturedEvents(
      [nestedLogin as never],
      scriptedToolCall('login', { creds: JSON.stringify({ user: 'bob', password: PW }) }, 'c1'),
    );
    expect(text).not.toContain(PW);
  });

  it('are redacted when they stay invalid after repair (an envelope with a wrong type)', async () => {
    const { text, events } = await capturedEvents(
      [login as never],
      scriptedToolCall('login', { arguments: { user: 5, password: PW } }, 'c1'),
    );
    const invalid = events.find((event) => event.type === 'invalid_tool_args');
    expect(invalid).toMatchObject({ arguments: { arguments: { user: 5, password: REDACTED } } });
    expect(text).not.toContain(PW);
  });

  it('shrink to their size when a sensitive value sits where no name or path explains it', async () => {
    const { text, events } = await capturedEvents(
      [login as never],
      scriptedToolCall('login', { arguments: { user: 'bob', password: PW }, note: `again ${PW}` }, 'c1'),
    );
    const invalid = events.find((event) => event.type === 'invalid_tool_args') as { arguments?: unknown };
    expect(String(invalid.arguments)).toMatch(/^\[redacted\] \(\d+ characters of arguments\)$/);
    expect(text).not.toContain(PW);
  });

  for (const args of [
    { arguments: { user: 'bob', password: PW } },
    { creds: JSON.stringify({ password: PW }) },
    { deep: { Password: PW } },
  ]) {
    it(`are redacted for an unknown tool (${Object.keys(args)[0]})`, async () => {
      const { text, events } = await capturedEvents(
        [login as never, echo as never],
        scriptedToolCall('logon', args as never, 'c1'),
      );
      expect(events.some((event) => event.type === 'unknown_tool_call')).toBe(true);
      expect(text).not.toContain(PW);
    });
  }
});

describe('the schema walk fails closed', () => {
  const redact = (parameters: unknown, value: unknown) =>
    JSON.stringify(
      redactValue(
        value,
        redactionOf(
          completeTool(
            defineTool({ name: 't', description: 'T.', parameters: parameters as never, execute: () => 'ok' }),
          ) as never,
        ),
      ),
    );

  it('redacts a recursive schema’s subtree past the unrolled levels', () => {
    const parameters = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { secret: { type: 'string', 'x-tiny-sensitive': true }, child: { $ref: '#/$defs/Node' } },
        },
      },
    };
    let node: Record<string, unknown> = { secret: PW };
    for (let level = 0; level < 5; level += 1) node = { secret: `level-${level}`, child: node };
    expect(redact(parameters, { root: node })).not.toContain(PW);
  });

  it('redacts a sensitive field nested deeper than the walk goes', () => {
    let schema: Record<string, unknown> = { type: 'string', 'x-tiny-sensitive': true };
    for (let level = 0; level < 34; level += 1) schema = { allOf: [schema] };
    expect(redact({ type: 'object', properties: { pw: schema, q: { type: 'string' } } }, { pw: PW, q: 'x' })).toBe(
      JSON.stringify({ pw: REDACTED, q: 'x' }),
    );
  });

  it('leaves a deep schema that marks nothing sensitive alone', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 34; level += 1) schema = { allOf: [schema] };
    expect(
      redactionOf(
        completeTool(
          defineTool({
            name: 't',
            description: 'T.',
            parameters: { type: 'object', properties: { q: schema } } as never,
            execute: () => 'ok',
          }),
        ) as never,
      ),
    ).toBeUndefined();
  });

  it('makes every argument sensitive past the path limit', () => {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 260; index += 1) properties[`f${index}`] = { type: 'string', 'x-tiny-sensitive': true };
    expect(redact({ type: 'object', properties }, { f259: PW })).not.toContain(PW);
  });
});

describe('streamed argument deltas', () => {
  it('are judged again when a call id restarts with another tool (no password under a reused id)', async () => {
    const model = new ScriptedModel({
      chunkSize: 5,
      steps: [
        {
          toolCalls: [
            scriptedToolCall('echo', { s: 'hello' }, 'c1'),
            scriptedToolCall('login', { user: 'bob', password: PW }, 'c1'),
          ],
        },
        { content: 'done' },
      ],
    });
    const stream = new AgentHarness({ model, tools: [echo, login], policy: { captureToolIo: true } }).stream({}, 'go');
    const deltas: string[] = [];
    try {
      for await (const event of stream) if (event.type === 'tool_call_delta') deltas.push(event.argumentsDelta);
    } catch {
      // A repeated call id may end the run; what streamed before is what is checked.
    }
    await stream.result.catch(() => undefined);
    expect(deltas.join('')).toBe(JSON.stringify({ s: 'hello' }));
  });
});
