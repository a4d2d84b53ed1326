import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  collectStreamSettled,
  type LanguageModelV1,
  type LanguageModelV1FinishReason,
  type LanguageModelV1Request,
  ModelCallError,
} from '@tiny/llm';
import { createAnthropic } from '@tiny/provider-anthropic';
import { createOpenAICompatible } from '@tiny/provider-openai';
import { TinyError } from '@tiny/tools';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from './property-runs.js';

/**
 * Both HTTP adapters against a hostile 127.0.0.1 server: random redirects (301/302/303/307/308 to
 * other ports, host names and schemes, protocol-relative and relative Locations), finish reasons
 * drawn from real and random values, giant lines, keep-alive floods and stalls. Properties: nothing
 * reaches the other origin, no call of a turn that did not end normally is executable (its finish
 * reason is a broken one), every failure is a typed error, nothing hangs, RSS stays bounded.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? propertyRuns(100));
const SECRET = 'sk-hostile-secret-key';
const PROMPT = 'the secret prompt 7d1f';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

function server() {
  const state = {
    handler: ((_request, response) => response.writeHead(500).end()) as Handler,
    requests: 0,
    leaks: 0,
    server: undefined as unknown as Server,
    port: 0,
    open: new Set<ServerResponse>(),
  };
  state.server = createServer((request, response) => {
    state.open.add(response);
    response.on('close', () => state.open.delete(response));
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => {
      state.requests += 1;
      const headers = JSON.stringify(request.headers);
      if (headers.includes(SECRET) || body.includes(PROMPT)) state.leaks += 1;
      state.handler(request, response, body);
    });
  });
  return state;
}

const api = server();
const elsewhere = server();
beforeAll(async () => {
  for (const each of [api, elsewhere]) {
    await new Promise<void>((resolve) => each.server.listen(0, '127.0.0.1', resolve));
    each.port = (each.server.address() as AddressInfo).port;
  }
  elsewhere.handler = (_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
});
afterAll(async () => {
  for (const each of [api, elsewhere]) {
    for (const response of each.open) response.destroy();
    each.server.closeAllConnections();
    await new Promise((resolve) => each.server.close(resolve));
  }
});

const KNOWN_REASONS = [
  'stop',
  'length',
  'tool_calls',
  'content_filter',
  'function_call',
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
  'model_context_window_exceeded',
  'model_length',
  'insufficient_system_resource',
  'abort',
  'error',
  'MAX_TOKENS',
  'SAFETY',
  'RECITATION',
  'recitation',
  'STOP',
  'OTHER',
  'FINISH_REASON_UNSPECIFIED',
  'MALFORMED_FUNCTION_CALL',
  'eos',
  'load',
  'Tool_Calls',
];
/** Values after which the calls of a turn may run. */
const NORMAL = new Set(['stop', 'tool_calls', 'function_call', 'end_turn', 'stop_sequence', 'tool_use', 'eos']);
const BROKEN: ReadonlySet<LanguageModelV1FinishReason> = new Set(['length', 'content_filter', 'error']);

type Scenario =
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; target: number }
  | { kind: 'finish'; reason: string }
  | { kind: 'giant_line' }
  | { kind: 'keep_alive'; ping: boolean }
  | { kind: 'stall'; afterHeaders: boolean };

const scenario: fc.Arbitrary<Scenario> = fc.oneof(
  fc.record({
    kind: fc.constant('redirect' as const),
    status: fc.constantFrom(301 as const, 302 as const, 303 as const, 307 as const, 308 as const),
    target: fc.nat(6),
  }),
  fc.record({
    kind: fc.constant('finish' as const),
    reason: fc.oneof(
      fc.constantFrom(...KNOWN_REASONS),
      fc.string({ minLength: 1, maxLength: 24 }).filter((value) => value.trim() !== ''),
    ),
  }),
  fc.record({ kind: fc.constant('giant_line' as const) }),
  fc.record({ kind: fc.constant('keep_alive' as const), ping: fc.boolean() }),
  fc.record({ kind: fc.constant('stall' as const), afterHeaders: fc.boolean() }),
);

const CALL = { id: 'call_1', name: 'write_file', input: { path: 'a' } };

function openaiBody(reason: string, stream: boolean): string {
  const call = { id: CALL.id, type: 'function', function: { name: CALL.name, arguments: JSON.stringify(CALL.input) } };
  if (!stream)
    return JSON.stringify({
      id: 'c',
      object: 'chat.completion',
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: reason }],
    });
  const chunk = (choice: unknown) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [choice] })}\n\n`;
  return `${chunk({ index: 0, delta: { tool_calls: [{ index: 0, ...call }] } })}${chunk({ index: 0, delta: {}, finish_reason: reason })}data: [DONE]\n\n`;
}

function anthropicBody(reason: string, stream: boolean): string {
  const message = {
    id: 'msg',
    type: 'message',
    role: 'assistant',
    model: 'claude',
    content: [{ type: 'tool_use', ...CALL }],
    stop_reason: reason,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  if (!stream) return JSON.stringify(message);
  const event = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  return [
    event('message_start', { message: { ...message, content: [], stop_reason: null } }),
    event('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: CALL.id, name: CALL.name, input: {} },
    }),
    event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } }),
    event('content_block_stop', { index: 0 }),
    event('message_delta', { delta: { stop_reason: reason }, usage: { output_tokens: 1 } }),
    event('message_stop', {}),
  ].join('');
}

function locationFor(target: number): { location: string; sameOrigin: boolean } {
  switch (target) {
    case 0:
      return { location: `http://127.0.0.1:${elsewhere.port}/v1/x`, sameOrigin: false };
    case 1:
      return { location: `http://localhost:${elsewhere.port}/v1/x`, sameOrigin: false };
    case 2:
      return { location: `//127.0.0.1:${elsewhere.port}/v1/x`, sameOrigin: false };
    case 3:
      return { location: `https://127.0.0.1:${elsewhere.port}/v1/x`, sameOrigin: false };
    case 4:
      return { location: '/v1/ok/final', sameOrigin: true };
    case 5:
      return { location: 'ok/final', sameOrigin: true };
    default:
      return { location: `http://127.0.0.1:${api.port}/v1/ok/final`, sameOrigin: true };
  }
}

function pump(response: ServerResponse, block: string): void {
  const write = () => {
    while (!response.destroyed && response.write(block));
    if (!response.destroyed) response.once('drain', write);
  };
  write();
}

const request: LanguageModelV1Request = { messages: [{ role: 'user', content: PROMPT }] };
const LIMITS = { maxEventBytes: 64 * 1024, maxResponseBytes: 1024 * 1024, idleTimeoutMs: 80, totalTimeoutMs: 500 };
const figures = { runs: 0, leaks: 0, hangs: 0, untyped: 0, brokenTurns: 0, executableBroken: 0, redirects: 0 };

async function settle(model: LanguageModelV1, stream: boolean) {
  try {
    if (!stream) return { response: await model.doGenerate(request) };
    const result = await model.doStream(request);
    const settled = await collectStreamSettled(result.stream);
    return settled.error === undefined ? { response: settled.response } : { error: settled.error };
  } catch (error) {
    return { error };
  }
}

describe('adapters against a hostile server', () => {
  it(`leak nothing, run no call of a broken turn, fail typed and never hang (${RUNS} runs)`, async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    await fc.assert(
      fc.asyncProperty(
        scenario,
        fc.constantFrom('openai', 'anthropic'),
        fc.boolean(),
        async (drawn, adapter, stream) => {
          figures.runs += 1;
          const body = adapter === 'openai' ? openaiBody : anthropicBody;
          const leaksBefore = elsewhere.leaks;
          const requestsBefore = elsewhere.requests;
          const sse = (response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/event-stream' });
          const answer = (response: ServerResponse, reason: string, sent: string) => {
            const streamed = (JSON.parse(sent) as { stream?: boolean }).stream === true;
            response
              .writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' })
              .end(body(reason, streamed));
          };
          api.handler = (incoming, response, sent) => {
            if (incoming.url?.includes('/ok/')) return answer(response, 'stop', sent);
            switch (drawn.kind) {
              case 'redirect':
                response.writeHead(drawn.status, { location: locationFor(drawn.target).location }).end();
                return;
              case 'finish':
                answer(response, drawn.reason, sent);
                return;
              case 'giant_line':
                if (stream) {
                  sse(response);
                  response.write(adapter === 'openai' ? 'data: {"choices":[{"delta":{"content":"' : 'data: {"type":"');
                } else {
                  response.writeHead(200, { 'content-type': 'application/json' });
                  response.write('{"a":"');
                }
                pump(response, 'x'.repeat(16 * 1024));
                return;
              case 'keep_alive': {
                sse(response);
                const line = drawn.ping ? 'event: ping\ndata: {"type":"ping"}\n\n' : ': keep-alive\n\n';
                const timer = setInterval(() => response.write(line), 2);
                response.on('close', () => clearInterval(timer));
                return;
              }
              case 'stall':
                if (drawn.afterHeaders) {
                  response.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
                  response.write(stream ? ': hi\n\n' : '{');
                } else response.flushHeaders();
                return;
            }
          };
          const baseURL = `http://127.0.0.1:${api.port}/v1`;
          const model: LanguageModelV1 =
            adapter === 'openai'
              ? createOpenAICompatible({ baseURL, apiKey: SECRET, limits: LIMITS })('m')
              : createAnthropic({ baseURL, apiKey: SECRET, limits: LIMITS })('claude');
          const watchdog = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 15_000).unref());
          const outcome = await Promise.race([settle(model, stream), watchdog]);
          rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
          for (const response of api.open) response.destroy();
          if (outcome === 'hang') {
            figures.hangs += 1;
            throw new Error(`hang: ${JSON.stringify(drawn)} ${adapter} stream=${stream}`);
          }
          if (drawn.kind === 'redirect') figures.redirects += 1;
          expect(elsewhere.requests - requestsBefore, 'a request reached the other origin').toBe(0);
          expect(elsewhere.leaks - leaksBefore).toBe(0);
          if ('error' in outcome) {
            const typed = ModelCallError.isInstance(outcome.error) && TinyError.isInstance(outcome.error);
            if (!typed) figures.untyped += 1;
            expect(typed, `untyped: ${String(outcome.error)}`).toBe(true);
            if (drawn.kind === 'redirect' && !(locationFor(drawn.target).sameOrigin && drawn.status >= 307))
              expect(outcome.error).toMatchObject({ kind: 'redirect', isRetryable: false });
            return;
          }
          const { response } = outcome;
          const calls = response.toolCalls ?? [];
          if (drawn.kind === 'finish' && calls.length > 0 && !NORMAL.has(drawn.reason.trim().toLowerCase())) {
            figures.brokenTurns += 1;
            if (!BROKEN.has(response.finishReason)) figures.executableBroken += 1;
            expect(
              BROKEN.has(response.finishReason),
              `${drawn.reason} → ${response.finishReason} keeps its calls executable`,
            ).toBe(true);
          }
          expect(['finish', 'redirect'], `${drawn.kind} succeeded`).toContain(drawn.kind);
          if (drawn.kind === 'redirect') expect(locationFor(drawn.target).sameOrigin && drawn.status >= 307).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
    figures.leaks = elsewhere.leaks;
    const growth = (rssPeak - rssBefore) / 1024 / 1024;
    console.info(
      `hostile-server: runs ${figures.runs}, requests at the other origin ${elsewhere.requests}, leaks ${figures.leaks}, hangs ${figures.hangs}, untyped ${figures.untyped}, executable calls of broken turns ${figures.executableBroken} of ${figures.brokenTurns}, redirect runs ${figures.redirects}, peak RSS growth ${growth.toFixed(1)} MiB`,
    );
    expect(elsewhere.requests).toBe(0);
    expect(growth).toBeLessThan(256);
  });
});

/**
 * Turn integrity (the second property): missing, malformed and overridden finish reasons, content
 * after the finish, cuts and errors after the finish, wire values nested thousands deep, floods of
 * choices, tool-call indices and content blocks, and 1xx floods, against both adapters, streamed
 * and not. Properties: no call of a turn that did not end normally is executable (the turn fails,
 * its finish reason is a broken one, or the call is invalid), every failure is a typed error,
 * nothing hangs.
 */
const INTEGRITY_RUNS = Number(process.env.FUZZ_RUNS ?? propertyRuns(120));

type Broken =
  | { kind: 'reason_value'; value: string }
  | { kind: 'two_reasons'; first: string; second: string }
  | { kind: 'after_finish'; what: 'text' | 'call' }
  | { kind: 'cut_after'; how: 'eof' | 'error_event' | 'garbage' }
  | { kind: 'deep'; where: 'reason' | 'args' | 'error_detail'; depth: number }
  | { kind: 'flood'; count: number }
  | { kind: 'early_hints' };

const nestedText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;

const broken: fc.Arbitrary<Broken> = fc.oneof(
  fc.record({
    kind: fc.constant('reason_value' as const),
    value: fc.constantFrom('absent', 'null', '""', '"  "', '5', 'true', '{}', '[]', '{"r":"stop"}', '["tool_calls"]'),
  }),
  fc.record({
    kind: fc.constant('two_reasons' as const),
    first: fc.constantFrom(...KNOWN_REASONS),
    second: fc.constantFrom(...KNOWN_REASONS),
  }),
  fc.record({ kind: fc.constant('after_finish' as const), what: fc.constantFrom('text' as const, 'call' as const) }),
  fc.record({
    kind: fc.constant('cut_after' as const),
    how: fc.constantFrom('eof' as const, 'error_event' as const, 'garbage' as const),
  }),
  fc.record({
    kind: fc.constant('deep' as const),
    where: fc.constantFrom('reason' as const, 'args' as const, 'error_detail' as const),
    depth: fc.integer({ min: 65, max: 6000 }),
  }),
  fc.record({ kind: fc.constant('flood' as const), count: fc.integer({ min: 520, max: 3000 }) }),
  fc.record({ kind: fc.constant('early_hints' as const) }),
);

/** The reasons after which a turn's calls may run (a missing one is no normal end). */
const isNormal = (reason: string) => NORMAL.has(reason.trim().toLowerCase());

/** The OpenAI answer for a drawn break: [status, content type, body]. */
function openaiBroken(drawn: Broken, streamed: boolean): [number, string, string] {
  const call = (args: string) =>
    `{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":${args}}}`;
  const chunk = (delta: string, reason?: string) =>
    `data: {"object":"chat.completion.chunk","choices":[{"index":0,"delta":${delta}${reason === undefined ? '' : `,"finish_reason":${reason}`}}]}\n\n`;
  const whole = (args: string, reason: string | undefined) =>
    `{"object":"chat.completion","choices":[{"index":0,"message":{"content":null,"tool_calls":[${call(args)}]}${reason === undefined ? '' : `,"finish_reason":${reason}`}}]}`;
  const ok = JSON.stringify(JSON.stringify(CALL.input));
  const cut = JSON.stringify('{"path":"a"');
  const sse = (...events: string[]): [number, string, string] => [200, 'text/event-stream', events.join('')];
  const json = (body: string, status = 200): [number, string, string] => [status, 'application/json', body];
  const quoted = (reason: string) => JSON.stringify(reason);
  switch (drawn.kind) {
    case 'reason_value': {
      const reason = drawn.value === 'absent' ? undefined : drawn.value;
      return streamed
        ? sse(chunk(`{"tool_calls":[${call(ok)}]}`), chunk('{}', reason), 'data: [DONE]\n\n')
        : json(whole(ok, reason));
    }
    case 'two_reasons':
      return streamed
        ? sse(
            chunk(`{"tool_calls":[${call(ok)}]}`),
            chunk('{}', quoted(drawn.first)),
            chunk('{}', quoted(drawn.second)),
            'data: [DONE]\n\n',
          )
        : json(whole(ok, quoted(drawn.first)));
    case 'after_finish':
      return streamed
        ? sse(
            chunk('{"content":"hi"}', '"stop"'),
            chunk(drawn.what === 'text' ? '{"content":"more"}' : `{"tool_calls":[${call(ok)}]}`),
            'data: [DONE]\n\n',
          )
        : json(whole(ok, '"tool_calls"'));
    case 'cut_after': {
      const tail =
        drawn.how === 'eof'
          ? ''
          : drawn.how === 'error_event'
            ? 'data: {"error":{"message":"died"}}\n\n'
            : 'data: {oops\n\n';
      return streamed
        ? sse(chunk(`{"tool_calls":[${call(cut)}]}`), chunk('{}', '"tool_calls"'), tail)
        : json(whole(ok, '"tool_calls"'));
    }
    case 'deep':
      if (drawn.where === 'error_detail') return json(`{"detail":${nestedText(drawn.depth)}}`, 422);
      if (drawn.where === 'reason')
        return streamed
          ? sse(chunk(`{"tool_calls":[${call(ok)}]}`), chunk('{}', nestedText(drawn.depth)), 'data: [DONE]\n\n')
          : json(whole(ok, nestedText(drawn.depth)));
      return streamed
        ? sse(chunk(`{"tool_calls":[${call(nestedObject(drawn.depth))}]}`, '"tool_calls"'), 'data: [DONE]\n\n')
        : json(whole(nestedObject(drawn.depth), '"tool_calls"'));
    case 'flood': {
      const many = Array.from({ length: drawn.count }, (_, index) => `{"index":${index},"delta":{"content":"x"}}`).join(
        ',',
      );
      const calls = Array.from({ length: drawn.count }, (_, index) =>
        call(ok).replace('"index":0', `"index":${index}`).replace('call_1', `c${index}`),
      ).join(',');
      return streamed
        ? sse(`data: {"choices":[${many}]}\n\n`, chunk(`{"tool_calls":[${calls}]}`, '"tool_calls"'), 'data: [DONE]\n\n')
        : json(`{"choices":[{"index":0,"message":{"tool_calls":[${calls}]},"finish_reason":"tool_calls"}]}`);
    }
    case 'early_hints':
      return [0, '', ''];
  }
}

/** The Anthropic answer for a drawn break: [status, content type, body]. */
function anthropicBroken(drawn: Broken, streamed: boolean): [number, string, string] {
  const event = (type: string, fields: string) => `event: ${type}\ndata: {"type":"${type}"${fields}}\n\n`;
  const start = event('message_start', ',"message":{"id":"msg","usage":{}}');
  const toolStart = (index: number, input = '{}') =>
    event(
      'content_block_start',
      `,"index":${index},"content_block":{"type":"tool_use","id":"t${index}","name":"write_file","input":${input}}`,
    );
  const toolJson = (json: string) =>
    event(
      'content_block_delta',
      `,"index":0,"delta":{"type":"input_json_delta","partial_json":${JSON.stringify(json)}}`,
    );
  const blockStop = event('content_block_stop', ',"index":0');
  const stop = (reason: string | undefined) =>
    event('message_delta', `,"delta":{${reason === undefined ? '' : `"stop_reason":${reason}`}}`);
  const end = event('message_stop', '');
  const whole = (input: string, reason: string | undefined, blocks?: string) =>
    `{"id":"msg","type":"message","content":[${blocks ?? `{"type":"tool_use","id":"t1","name":"write_file","input":${input}}`}]${reason === undefined ? '' : `,"stop_reason":${reason}`}}`;
  const sse = (...events: string[]): [number, string, string] => [200, 'text/event-stream', events.join('')];
  const json = (body: string, status = 200): [number, string, string] => [status, 'application/json', body];
  const tool = [start, toolStart(0), toolJson('{"path":"a"}'), blockStop];
  switch (drawn.kind) {
    case 'reason_value': {
      const reason = drawn.value === 'absent' ? undefined : drawn.value;
      return streamed ? sse(...tool, stop(reason), end) : json(whole('{"path":"a"}', reason));
    }
    case 'two_reasons':
      return streamed
        ? sse(...tool, stop(JSON.stringify(drawn.first)), stop(JSON.stringify(drawn.second)), end)
        : json(whole('{"path":"a"}', JSON.stringify(drawn.first)));
    case 'after_finish':
      return streamed
        ? sse(
            start,
            stop('"end_turn"'),
            ...(drawn.what === 'call'
              ? [toolStart(0), toolJson('{"path":"a"}'), blockStop]
              : [event('content_block_start', ',"index":0,"content_block":{"type":"text","text":"more"}')]),
            end,
          )
        : json(whole('{"path":"a"}', '"tool_use"'));
    case 'cut_after':
      if (!streamed) return json(whole('{"path":"a"}', '"tool_use"'));
      if (drawn.how === 'error_event')
        return sse(...tool, stop('"tool_use"'), event('error', ',"error":{"type":"api_error","message":"died"}'));
      return sse(
        start,
        toolStart(0),
        toolJson('{"path":"a"'),
        stop('"tool_use"'),
        drawn.how === 'garbage' ? 'data: {oops\n\n' : '',
      );
    case 'deep':
      if (drawn.where === 'error_detail')
        return json(
          `{"type":"error","error":{"type":"invalid_request_error","message":${nestedText(drawn.depth)}}}`,
          400,
        );
      if (drawn.where === 'reason')
        return streamed
          ? sse(...tool, stop(nestedText(drawn.depth)), end)
          : json(whole('{"path":"a"}', nestedText(drawn.depth)));
      return streamed
        ? sse(start, toolStart(0, nestedObject(drawn.depth)), blockStop, stop('"tool_use"'), end)
        : json(whole(nestedObject(drawn.depth), '"tool_use"'));
    case 'flood': {
      const blocks = Array.from(
        { length: drawn.count },
        (_, index) => `{"type":"tool_use","id":"t${index}","name":"write_file","input":{}}`,
      ).join(',');
      return streamed
        ? sse(start, ...Array.from({ length: drawn.count }, (_, index) => toolStart(index)), stop('"tool_use"'), end)
        : json(whole('', '"tool_use"', blocks));
    }
    case 'early_hints':
      return [0, '', ''];
  }
}

/** Whether a drawn break may legitimately leave a runnable call. */
function mayRun(drawn: Broken, streamed: boolean): boolean {
  if (drawn.kind === 'two_reasons') return isNormal(drawn.first) && (!streamed || isNormal(drawn.second));
  if (!streamed) return drawn.kind === 'after_finish' || drawn.kind === 'cut_after';
  return false;
}

describe('adapters against broken turns', () => {
  it(`run no call of a turn that did not end normally, fail typed and never hang (${INTEGRITY_RUNS} runs)`, async () => {
    const counts = { runs: 0, untyped: 0, hangs: 0, executable: 0, failedTyped: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(broken, fc.constantFrom('openai', 'anthropic'), fc.boolean(), async (drawn, adapter, stream) => {
        counts.runs += 1;
        api.handler = (_incoming, response, sent) => {
          if (drawn.kind === 'early_hints') {
            const hint = () => {
              if (!response.destroyed) response.writeEarlyHints({ link: '</a>; rel=preload' });
            };
            hint();
            const timer = setInterval(hint, 20);
            response.on('close', () => clearInterval(timer));
            return;
          }
          const streamed = (JSON.parse(sent) as { stream?: boolean }).stream === true;
          const [status, type, body] = (adapter === 'openai' ? openaiBroken : anthropicBroken)(drawn, streamed);
          response.writeHead(status, { 'content-type': type }).end(body);
        };
        const baseURL = `http://127.0.0.1:${api.port}/v1`;
        const model: LanguageModelV1 =
          adapter === 'openai'
            ? createOpenAICompatible({ baseURL, apiKey: SECRET, limits: LIMITS })('m')
            : createAnthropic({ baseURL, apiKey: SECRET, limits: LIMITS })('claude');
        const watchdog = new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), 15_000).unref());
        const outcome = await Promise.race([settle(model, stream), watchdog]);
        for (const response of api.open) response.destroy();
        const label = `${JSON.stringify(drawn).slice(0, 120)} ${adapter} stream=${stream}`;
        if (outcome === 'hang') {
          counts.hangs += 1;
          throw new Error(`hang: ${label}`);
        }
        if ('error' in outcome) {
          const typed = ModelCallError.isInstance(outcome.error) && TinyError.isInstance(outcome.error);
          if (!typed) counts.untyped += 1;
          expect(typed, `untyped: ${String(outcome.error)} for ${label}`).toBe(true);
          counts.failedTyped += 1;
          if (drawn.kind === 'early_hints')
            expect(outcome.error).toMatchObject({ kind: 'timeout', providerKind: 'response_timeout' });
          if (drawn.kind === 'flood')
            expect(['protocol_violation', 'response_too_large'], label).toContain(
              (outcome.error as { kind?: string }).kind,
            );
          if (drawn.kind === 'after_finish' && stream)
            expect(outcome.error, label).toMatchObject({ kind: 'protocol_violation' });
          return;
        }
        expect(drawn.kind, `${label} succeeded`).not.toBe('early_hints');
        const { response } = outcome;
        const runnable =
          !BROKEN.has(response.finishReason) && (response.toolCalls ?? []).some((call) => call.invalid === undefined);
        if (runnable && !mayRun(drawn, stream)) counts.executable += 1;
        else counts.refused += 1;
        expect(runnable && !mayRun(drawn, stream), `${label} → ${response.finishReason} keeps a call runnable`).toBe(
          false,
        );
      }),
      { numRuns: INTEGRITY_RUNS },
    );
    console.info(
      `hostile-server integrity: runs ${counts.runs}, hangs ${counts.hangs}, untyped ${counts.untyped}, executable calls of broken turns ${counts.executable}, typed failures ${counts.failedTyped}, refused or non-runnable ${counts.refused}`,
    );
  });
});
