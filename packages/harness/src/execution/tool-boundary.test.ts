import { completeTool, defineTool, ToolResult } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { defaultIdempotencyKey } from '../ledger/idempotency-key.js';
import { InMemoryToolEffectLedger } from '../ledger/in-memory-tool-effect-ledger.js';
import { ScriptedModel, scriptedToolCall } from '../testkit/index.js';
import { REDACTED, redactionOf, redactValue } from './redaction.js';
import { scrubText, secretVariants } from './secret-variants.js';

const KEY = 'sk-live/4f+Zq=ü 9$';

type Echo = 'message' | 'url' | 'json' | 'cause' | 'aggregate' | 'custom' | 'basic' | 'result-json' | 'metadata';

function leakyTool(echo: Echo) {
  return defineTool({
    name: 'fetch_quote',
    description: 'Fetches a quote.',
    parameters: Type.Object({ symbol: Type.String(), apiKey: Type.String() }),
    injected: [{ name: 'apiKey', source: 'host' }],
    execute: ({ symbol, apiKey }) => {
      const url = `https://api.example/q?s=${symbol}&key=${encodeURIComponent(apiKey)}`;
      switch (echo) {
        case 'message':
          throw new Error(`GET failed with key ${apiKey}`);
        case 'url':
          throw new Error(`GET ${url} -> 401`);
        case 'json':
          throw new Error(`upstream said ${JSON.stringify({ request: { key: apiKey } })}`);
        case 'cause':
          throw new Error('quote failed', { cause: new Error('auth', { cause: new Error(`bad key ${apiKey}`) }) });
        case 'aggregate':
          throw new AggregateError([new Error(`first ${apiKey}`), `second ${apiKey}`], 'all failed');
        case 'custom':
          throw Object.assign(new Error('request failed'), {
            config: { headers: { authorization: `Bearer ${apiKey}` } },
          });
        case 'basic':
          throw new Error(`sent Authorization: Basic ${Buffer.from(`user:${apiKey}`).toString('base64')}`);
        case 'result-json':
          return ToolResult.json({ price: 1, debug: { url, nested: [{ key: apiKey }] } });
        case 'metadata':
          return ToolResult.success('ok').withMetadata({ key: apiKey });
      }
    },
  });
}

const ECHOES: Echo[] = ['message', 'url', 'json', 'cause', 'aggregate', 'custom', 'basic', 'result-json', 'metadata'];

function deepText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || seen.has(value)) return String(value);
  seen.add(value);
  const parts = Reflect.ownKeys(value).map((key) => {
    const item = (value as Record<string | symbol, unknown>)[key];
    return `${String(key)}=${deepText(item, seen)}`;
  });
  if (value instanceof Error) parts.push(value.message, value.stack ?? '');
  return parts.join('\n');
}

/** Every form the boundary promises to catch, for asserting none is left. */
const forms = (secret: string) => secretVariants(secret);
const leaked = (text: string, secret: string) => forms(secret).filter((form) => text.includes(form));

describe('the tool boundary', () => {
  for (const echo of ECHOES) {
    for (const capture of [false, true]) {
      it(`scrubs a host value a tool echoes (${echo}, capture ${capture}) from the next request and every event`, async () => {
        const model = new ScriptedModel({
          steps: [{ toolCalls: [scriptedToolCall('fetch_quote', { symbol: 'ACME' }, 'c1')] }, { content: 'done' }],
        });
        const harness = new AgentHarness({
          model,
          tools: [leakyTool(echo)],
          policy: { captureToolIo: capture, toolErrors: { kind: 'return_error' } },
        });
        const events: AgentEvent[] = [];
        const run = await harness.invoke({ hostValues: { apiKey: KEY } }, [{ role: 'user', content: 'go' }], {
          onEvent: (event) => events.push(event),
        });
        expect(leaked(JSON.stringify(model.requests), KEY)).toEqual([]);
        expect(leaked(JSON.stringify(events), KEY)).toEqual([]);
        expect(leaked(JSON.stringify(run), KEY)).toEqual([]);
        if (!['cause', 'aggregate', 'custom', 'metadata'].includes(echo))
          expect(JSON.stringify(model.requests)).toContain(REDACTED);
      });
    }
  }

  for (const echo of ECHOES.filter((name) => !name.startsWith('result') && name !== 'metadata')) {
    it(`keeps a host value out of the ToolExecutionError (${echo}): message, stack, cause chain, errors, custom fields`, async () => {
      const model = new ScriptedModel({
        steps: [{ toolCalls: [scriptedToolCall('fetch_quote', { symbol: 'ACME' }, 'c1')] }],
      });
      const harness = new AgentHarness({ model, tools: [leakyTool(echo)] });
      const events: AgentEvent[] = [];
      const error = await harness
        .invoke({ hostValues: { apiKey: KEY } }, [{ role: 'user', content: 'go' }], {
          onEvent: (event) => events.push(event),
        })
        .catch((caught: unknown) => caught);
      expect(ToolExecutionError.isInstance(error)).toBe(true);
      expect(leaked(deepText(error), KEY)).toEqual([]);
      expect(leaked(JSON.stringify(events), KEY)).toEqual([]);
      // The copy keeps its class: a host can still tell what the tool threw.
      const cause = (error as Error).cause;
      expect(cause).toBeInstanceOf(echo === 'aggregate' ? AggregateError : Error);
      if (echo === 'cause') expect(((cause as Error).cause as Error).message).toBe('auth');
    });
  }

  it('keeps a sensitive argument out of the ToolExecutionError cause, not only its message', async () => {
    const login = defineTool({
      name: 'login',
      description: 'Logs in.',
      parameters: Type.Object({ password: Type.String({ 'x-tiny-sensitive': true }) }),
      execute: ({ password }) => {
        throw new Error(`bad password ${password}`);
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('login', { password: 'correct-horse-1' }, 'c1')] }],
    });
    const error = await new AgentHarness({ model, tools: [login] })
      .invoke({}, [{ role: 'user', content: 'go' }])
      .catch((caught: unknown) => caught);
    expect(ToolExecutionError.isInstance(error)).toBe(true);
    expect(deepText(error)).not.toContain('correct-horse-1');
    expect(((error as Error).cause as Error).message).toBe(`bad password ${REDACTED}`);
  });

  it('scrubs a nested call’s host value from what the calling tool gets (a program’s output)', async () => {
    const inner = leakyTool('message');
    let seen = '';
    const outer = defineTool({
      name: 'outer',
      description: 'Calls fetch_quote.',
      parameters: Type.Object({}),
      nestedTools: [inner],
      execute: async (_args, context) => {
        const result = await context.callTool?.('fetch_quote', { symbol: 'ACME' }).catch((error: Error) => error);
        seen = result instanceof Error ? deepText(result) : (result?.output() ?? '');
        return seen;
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('outer', {}, 'o1')] }, { content: 'done' }],
    });
    const harness = new AgentHarness({ model, tools: [outer], policy: { toolErrors: { kind: 'return_error' } } });
    await harness.invoke({ hostValues: { apiKey: KEY } }, [{ role: 'user', content: 'go' }]);
    expect(seen).toContain(REDACTED);
    expect(leaked(seen, KEY)).toEqual([]);
  });

  it('scrubs host and sensitive values from what a running tool reports (progress, custom events)', async () => {
    const tool = defineTool({
      name: 'sync',
      description: 'Syncs.',
      parameters: Type.Object({ token: Type.String({ 'x-tiny-sensitive': true }), apiKey: Type.String() }),
      injected: [{ name: 'apiKey', source: 'host' }],
      execute: ({ token, apiKey }, context) => {
        context.reportProgress({ message: `using ${apiKey}`, partial: { token } });
        context.emit({ debug: [`key=${encodeURIComponent(apiKey)}`, token] });
        return 'synced';
      },
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('sync', { token: 'tok-5551-abc' }, 'c1')] }, { content: 'done' }],
    });
    const events: AgentEvent[] = [];
    await new AgentHarness({ model, tools: [tool] }).invoke(
      { hostValues: { apiKey: KEY } },
      [{ role: 'user', content: 'go' }],
      {
        onEvent: (event) => events.push(event),
      },
    );
    const reported = JSON.stringify(
      events.filter((event) => event.type === 'tool_progress' || event.type === 'custom'),
    );
    expect(reported).toContain(REDACTED);
    expect(leaked(reported, KEY)).toEqual([]);
    expect(reported).not.toContain('tok-5551-abc');
  });

  it('leaves host values under four characters alone, so short values do not cut up every text', async () => {
    const tool = defineTool({
      name: 'count',
      description: 'Counts.',
      parameters: Type.Object({ unit: Type.String() }),
      injected: [{ name: 'unit', source: 'host' }],
      execute: ({ unit }) => `counted 42 ${unit}`,
    });
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('count', {}, 'c1')] }, { content: 'done' }],
    });
    await new AgentHarness({ model, tools: [tool] }).invoke({ hostValues: { unit: 'kg', region: 'e' } }, [
      { role: 'user', content: 'go' },
    ]);
    expect(JSON.stringify(model.requests)).toContain('counted 42 kg');
  });
});

describe('scrubText', () => {
  it('replaces overlapping and adjacent occurrences in one pass, never inside its own marker', () => {
    expect(scrubText('x-abababababab-y', ['abababab'])).toBe(`x-${REDACTED}-y`);
    expect(scrubText('token-one token-two', ['token-one ', 'one token-'])).toBe(`${REDACTED}two`);
    expect(scrubText('[redacted] dact', ['dact'])).toBe(`[redacted] ${REDACTED}`);
    expect(scrubText('xsecret-valueyy', ['secret-value'])).toBe(`x${REDACTED}yy`);
  });

  it('matches a pattern under 8 characters only at word edges (a PIN is not cut out of a longer number)', () => {
    expect(scrubText('amount -1966257170, pin 5717.', ['5717'])).toBe(`amount -1966257170, pin ${REDACTED}.`);
    expect(scrubText('"5717" 5717x x5717 §5717§', ['5717'])).toBe(`"${REDACTED}" 5717x x5717 §${REDACTED}§`);
    expect(scrubText('a-§bc-d', ['§bc'])).toBe(`a-${REDACTED}-d`);
  });

  it('knows the encodings a tool echoes a value in', () => {
    const secret = 'a b/c&d"é';
    const variants = secretVariants(secret);
    expect(variants).toEqual(
      expect.arrayContaining([
        secret,
        'a b/c&d\\"é',
        'a b/c&d\\"\\u00e9',
        encodeURIComponent(secret),
        encodeURIComponent(secret).replaceAll('%20', '+'),
        'a b/c&amp;d&quot;é',
        Buffer.from(secret).toString('base64').slice(0, 13),
      ]),
    );
    expect(secretVariants('abc')).toEqual([]);
  });
});

describe('sensitive fields through $ref', () => {
  it('finds a sensitive property reached through $ref/$defs (and definitions, and recursion)', () => {
    const tool = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: Type.Unsafe<{ card: { pin: string; holder: string }; backup?: { pin: string } }>({
        type: 'object',
        $defs: {
          Card: {
            type: 'object',
            properties: { pin: { type: 'string', 'x-tiny-sensitive': true }, holder: { type: 'string' } },
          },
        },
        definitions: { Backup: { $ref: '#/$defs/Card' } },
        properties: { card: { $ref: '#/$defs/Card' }, backup: { $ref: '#/definitions/Backup' } },
      }),
      execute: () => 'paid',
    });
    const redaction = redactionOf(completeTool(tool) as never);
    expect(redactValue({ card: { pin: '1234', holder: 'ada' }, backup: { pin: '9876' } }, redaction)).toEqual({
      card: { pin: REDACTED, holder: 'ada' },
      backup: { pin: REDACTED },
    });
  });

  it('follows a recursive schema three levels deep without looping', () => {
    const tool = defineTool({
      name: 'tree',
      description: 'Tree.',
      parameters: Type.Unsafe<{ root: unknown }>({
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        $defs: {
          Node: {
            type: 'object',
            properties: { secret: { type: 'string', 'x-tiny-sensitive': true }, child: { $ref: '#/$defs/Node' } },
          },
        },
      }),
      execute: () => 'ok',
    });
    const value = { root: { secret: 'aaaa', child: { secret: 'bbbb', child: { secret: 'cccc' } } } };
    expect(JSON.stringify(redactValue(value, redactionOf(completeTool(tool) as never)))).not.toMatch(/aaaa|bbbb|cccc/);
  });
});

describe('the default idempotency key', () => {
  it('cannot be brute-forced for a 4-digit sensitive PIN, and stays unique per call', async () => {
    const ledger = new InMemoryToolEffectLedger();
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: Type.Object({ amount: Type.Number(), pin: Type.String({ 'x-tiny-sensitive': true }) }),
      execute: () => 'paid',
    });
    const pins = ['0042', '7311', '0042'];
    const model = new ScriptedModel({
      steps: [
        { toolCalls: pins.map((pin, n) => scriptedToolCall('pay', { amount: 5, pin }, `c${n}`)) },
        { content: 'done' },
      ],
    });
    await new AgentHarness({ model, tools: [pay], ledger }).invoke({ runId: 'r1' }, [{ role: 'user', content: 'go' }]);
    const rows = ledger.rows('r1');
    expect(new Set(rows.map((row) => row.idempotencyKey)).size).toBe(3);
    let recovered = 0;
    for (const row of rows) {
      for (let guess = 0; guess < 10_000; guess += 1) {
        const pin = String(guess).padStart(4, '0');
        const key = defaultIdempotencyKey({
          runId: 'r1',
          callId: row.callId,
          toolName: 'pay',
          arguments: { amount: 5, pin },
        });
        if (key === row.idempotencyKey) recovered += 1;
      }
    }
    expect(recovered).toBe(0);
    // Stable across a restart: derived from the call alone, no key material.
    expect(rows[0]?.idempotencyKey).toBe(
      defaultIdempotencyKey({ runId: 'r1', callId: 'c0', toolName: 'pay', arguments: { amount: 5, pin: REDACTED } }),
    );
  });
});

describe('an unknown tool’s captured arguments', () => {
  it('are redacted by every known tool’s sensitive paths and scrubbed of host values', async () => {
    const login = defineTool({
      name: 'login',
      description: 'Log in.',
      parameters: Type.Object({ user: Type.String(), password: Type.String({ 'x-tiny-sensitive': true }) }),
      execute: () => 'ok',
    });
    const model = new ScriptedModel({
      steps: [
        { toolCalls: [scriptedToolCall('logni', { user: 'ada', password: 'hunter22', token: `t ${KEY}` }, 'c1')] },
        { content: 'done' },
      ],
    });
    const run = await new AgentHarness({
      model,
      tools: [login],
      policy: { captureToolIo: true },
    }).invoke({ hostValues: { apiKey: KEY } }, [{ role: 'user', content: 'go' }]);
    const unknown = run.events.find((event) => event.type === 'unknown_tool_call');
    expect(unknown).toMatchObject({ arguments: { user: 'ada', password: REDACTED, token: `t ${REDACTED}` } });
  });
});
