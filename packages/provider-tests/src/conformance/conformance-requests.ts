import type { LanguageModelV1Request, Message, ToolSchema } from '@tiny/llm';

/**
 * The conformance cases. Fixture-only cases need scripted traffic (a live model cannot be made to
 * send broken arguments or a 429 on demand) and are skipped against a live endpoint.
 * - `text`: plain generation.
 * - `stream_order`: the same request streamed; parts in the documented order.
 * - `tool_call`: one native call, generated then streamed.
 * - `parallel_tool_calls`: two calls in one reply, generated then streamed.
 * - `repaired_arguments` (fixture only): a relaxed-JSON call repaired, an unrepairable one returned
 *   invalid with its raw text and reason, generated then streamed.
 * - `zero_argument_tool`: a tool without parameters called with no arguments, generated then streamed.
 * - `tool_choice`: a named tool choice obeyed.
 * - `structured_output`: a strict JSON-schema answer.
 * - `prompt_guided`: a model without native tools (by profile or after the server rejected them)
 *   calls a tool written in its prompt, generated then streamed.
 * - `abort`: a stream aborted mid-way, then a call aborted while waiting for the headers.
 * - `error_mapping` (fixture only): HTTP errors and a mid-stream error mapped to typed errors; the
 *   output streamed before the mid-stream error is kept (`collectStreamSettled`).
 * - `stream_endings` (fixture only): the `text` request streamed three times: a stream that ends
 *   before the model finished (with `[DONE]` or the provider's own end marker but no finish
 *   reason) is a retryable error after the text streamed so far, never a normal finish; a stream
 *   whose finish reason arrived, then the body ended without an end marker, is a normal finish;
 *   a stream whose finish reason and usage arrived, then the connection dropped, is a normal
 *   finish keeping that usage when the drop came after the terminal event, and a retryable
 *   `incomplete_stream` error (never a finish) when it came before (`[DONE]`, `message_stop`).
 * - `refusal` (fixture only): the `structured_output` request refused by the model, generated then
 *   streamed: `refusal` set (and `refusal_delta` parts), no answer in `content`, finish reason
 *   `content_filter`. Adapters whose provider has no refusals skip it with that reason.
 * - `spliced_stream` (fixture only): the `tool_call` request streamed once; the server splices a
 *   second message (or completion) into the stream while the first one's call is half-streamed.
 *   No call of it may be executable: the stream ends with a non-retryable `protocol_violation`
 *   error (or a finish `error`), and every call it delivered is invalid.
 * - `splice_classes` (fixture only): the `tool_call` request streamed {@link SPLICE_CLASSES}
 *   times, once per class of splice, each in the provider's own wire form: a call slot reused
 *   after it closed (a block index or a call index taken again), a restart or a second call under
 *   one id, and a stream whose identity or order breaks (a completion id that changes, a block
 *   index below one already started). Each stream ends with no executable call: a non-retryable
 *   `protocol_violation` error (or a finish `error`), every call it delivered invalid.
 * - `error_envelopes` (fixture only): the `text` request answered by errors in envelopes that are
 *   not the provider's own (see `ERROR_ENVELOPE_SCRIPT`): a relay's wrapped upstream error, an
 *   error serialised as JSON text in `error.message`, an unknown server-side type, then a
 *   streamed error event carrying a bare `{code, message, type}` object (llama.cpp); each a
 *   `ModelCallError` of the shared kind, with the inner message.
 * - `context_overflow` (fixture only): the `text` request rejected because the prompt does not
 *   fit (llama.cpp's 400 `exceed_context_size_error`, its 500 `Context size has been exceeded`,
 *   then the same in a stream): kind `context_overflow`, never retryable.
 */
export type ConformanceCase =
  | 'text'
  | 'stream_order'
  | 'tool_call'
  | 'parallel_tool_calls'
  | 'repaired_arguments'
  | 'zero_argument_tool'
  | 'tool_choice'
  | 'structured_output'
  | 'prompt_guided'
  | 'abort'
  | 'error_mapping'
  | 'stream_endings'
  | 'refusal'
  | 'spliced_stream'
  | 'splice_classes'
  | 'error_envelopes'
  | 'context_overflow';

/** Every case, in the order the suite runs them. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  'text',
  'stream_order',
  'tool_call',
  'parallel_tool_calls',
  'repaired_arguments',
  'zero_argument_tool',
  'tool_choice',
  'structured_output',
  'prompt_guided',
  'abort',
  'error_mapping',
  'stream_endings',
  'refusal',
  'spliced_stream',
  'splice_classes',
  'error_envelopes',
  'context_overflow',
];

/** Cases that need recorded traffic and are skipped in live mode. */
export const FIXTURE_ONLY_CASES: readonly ConformanceCase[] = [
  'repaired_arguments',
  'error_mapping',
  'stream_endings',
  'refusal',
  'spliced_stream',
  'splice_classes',
  'error_envelopes',
  'context_overflow',
];

/** How many streams the `splice_classes` case reads: one per class of splice (see {@link ConformanceCase}). */
export const SPLICE_CLASSES = 3;

/** `get_weather(city, unit?)`, the tool most cases offer. */
export const weatherTool: ToolSchema = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
};

/** `get_time()`, a tool without parameters. */
export const timeTool: ToolSchema = {
  name: 'get_time',
  description: 'Get the current time in UTC.',
  parameters: { type: 'object', properties: {} },
};

const system: Message = { role: 'system', content: 'You are a test assistant. Follow the instructions exactly.' };
const user = (content: string): Message => ({ role: 'user', content });

/** The schema of the `structured_output` case: `summary` is optional, so strict mode makes it nullable. */
export const weatherReportSchema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    temperature_c: { type: 'number' },
    summary: { type: 'string' },
  },
  required: ['city', 'temperature_c'],
} as const;

/**
 * The requests the suite sends, per case (without `abortSignal`). A fixture for an adapter records
 * what its server answers to exactly these.
 */
export const conformanceRequests = {
  text: { messages: [system, user('Reply with exactly the word: pong')], temperature: 0 },
  tool_call: {
    messages: [system, user('What is the weather in Paris? Call the get_weather tool.')],
    tools: [weatherTool],
    temperature: 0,
  },
  parallel_tool_calls: {
    messages: [
      system,
      user('Get the weather for Paris and for Oslo: call get_weather once per city, both in this reply.'),
    ],
    tools: [weatherTool],
    temperature: 0,
  },
  zero_argument_tool: {
    messages: [system, user('What time is it? Call the get_time tool.')],
    tools: [timeTool],
    temperature: 0,
  },
  tool_choice: {
    messages: [system, user('What is the weather in Paris?')],
    tools: [weatherTool, timeTool],
    toolChoice: { type: 'tool', toolName: 'get_time' },
    temperature: 0,
  },
  structured_output: {
    messages: [system, user('Report the weather in Paris as JSON with city, temperature_c and an optional summary.')],
    responseFormat: { type: 'json_schema', name: 'weather_report', schema: weatherReportSchema, strict: true },
    temperature: 0,
  },
  abort: { messages: [system, user('Count from 1 to 50, one number per line.')], temperature: 0 },
} as const satisfies Record<string, LanguageModelV1Request>;

/** What the `error_mapping` fixture answers, in order, and what the suite expects of each error. */
export const ERROR_MAPPING_SCRIPT = [
  { status: 429, message: 'Rate limit reached for requests', retryable: true, retryAfterMs: 2000 },
  { status: 400, message: "Invalid value for 'temperature'", retryable: false },
  { status: 500, message: 'The server had an error while processing your request', retryable: true },
  { status: 401, message: 'Incorrect API key provided', retryable: false },
] as const;

/** The message of the mid-stream error the `error_mapping` fixture sends after the HTTP errors. */
export const MID_STREAM_ERROR_MESSAGE = 'The model crashed while generating';

/**
 * What the `error_envelopes` fixture answers, in order (three `doGenerate` calls, then one
 * `doStream`), and the shared kind, retryability and inner message the suite expects of each.
 */
export const ERROR_ENVELOPE_SCRIPT = [
  { mode: 'generate', kind: 'overloaded', retryable: true, message: 'Overloaded' },
  { mode: 'generate', kind: 'context_overflow', retryable: false, message: 'prompt is too long' },
  { mode: 'generate', kind: 'server_error', retryable: true, message: 'engine loop has died' },
  { mode: 'stream', kind: 'server_error', retryable: true, message: 'slot unavailable' },
] as const;
