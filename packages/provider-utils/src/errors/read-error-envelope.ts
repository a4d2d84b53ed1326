import { asNonEmptyString, asNumber, asRecord } from '../wire/read-wire.js';
import { stringifyWire } from '../wire/wire-depth.js';

/** What an error body says, in whichever envelope the server used. */
export interface ErrorEnvelope {
  readonly message?: string | undefined;
  /** `error.type` (`overloaded_error`, `invalid_request_error`, `exceed_context_size_error`, ...), or Gemini's `status`. */
  readonly type?: string | undefined;
  /** `error.code` as text (`rate_limit_exceeded`, `"500"`). */
  readonly code?: string | undefined;
  /** `error.param`, the request field blamed. */
  readonly param?: string | undefined;
  /** A numeric `code` that is an HTTP status (vLLM, llama.cpp and OpenRouter put the status there). */
  readonly status?: number | undefined;
  /** The body's `request_id`, when it carried one. */
  readonly requestId?: string | undefined;
}

function codeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return asNonEmptyString(value);
}

/**
 * The JSON object a text is, or ends with (LiteLLM's `litellm.RateLimitError: AnthropicException -
 * {...}` puts the upstream body after its own words); a JSON string holding an object is read too.
 */
function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  const parse = (candidate: string): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(candidate);
      return typeof value === 'string' ? asRecord(safeParse(value)) : asRecord(value);
    } catch {
      return undefined;
    }
  };
  if (trimmed.startsWith('{') || trimmed.startsWith('"')) return parse(trimmed);
  const start = trimmed.indexOf('{');
  return start > 0 && trimmed.endsWith('}') ? parse(trimmed.slice(start)) : undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An error object's own facts. */
function factsOf(source: Readonly<Record<string, unknown>>): ErrorEnvelope {
  const status = asNumber(source.code) ?? asNumber(source.status);
  return {
    message: asNonEmptyString(source.message),
    type: asNonEmptyString(source.type) ?? asNonEmptyString(source.status),
    code: codeOf(source.code),
    param: asNonEmptyString(source.param),
    status: status !== undefined && status >= 400 && status <= 599 ? status : undefined,
  };
}

/** True for an object that is an error by itself (llama.cpp's bare `{code, message, type}` in an error event). */
function isBareError(record: Readonly<Record<string, unknown>>): boolean {
  return (
    asNonEmptyString(record.message) !== undefined &&
    (record.code !== undefined || asNonEmptyString(record.type) !== undefined) &&
    record.choices === undefined &&
    record.content === undefined &&
    record.delta === undefined
  );
}

/** How deep relays' wrappings are unwrapped; deeper text is kept as the message. */
const MAX_UNWRAP = 8;

/**
 * Reads an error out of a parsed body or event, whichever envelope the server used:
 * - Anthropic: `{"type":"error","error":{"type","message"},"request_id"}`;
 * - OpenAI Responses' stream error event: `{"type":"error","code","message","param","sequence_number"}`;
 * - OpenAI, Ollama, llama.cpp, newer vLLM, OpenRouter: `{"error":{"message","type","param","code"}}`;
 * - LM Studio: `{"error":"message"}`; older vLLM: `{"object":"error","message","type","code"}`;
 * - llama.cpp's in-stream error event: the bare `{"code","message","type"}` object;
 * - FastAPI validation: `{"detail": ...}`; Gemini's OpenAI endpoint: a one-element array;
 * - relays: the upstream error wrapped in `error.upstream_error` (an object or JSON text), or an
 *   Anthropic error envelope as JSON text inside `error.message` (Vertex-style), or OpenRouter's
 *   `error.metadata.raw`, or LiteLLM's `<Name>Error: <words> - {json}` message: the inner error's
 *   type and message win (its status too, when the outer one has none), up to eight levels deep;
 * - a body that is a JSON string holding any of these.
 * Returns `undefined` when the body holds none of them. Never throws.
 */
export function readErrorEnvelope(body: unknown, depth = 0): ErrorEnvelope | undefined {
  // A body that is a JSON string holding the error (a relay that serialised it twice).
  if (typeof body === 'string') return depth < MAX_UNWRAP ? readErrorEnvelope(parseObject(body), depth + 1) : undefined;
  const record = asRecord(Array.isArray(body) ? body[0] : body);
  if (record === undefined) return undefined;
  const requestId = asNonEmptyString(record.request_id);
  const withId = (facts: ErrorEnvelope): ErrorEnvelope =>
    requestId === undefined || facts.requestId !== undefined ? facts : { ...facts, requestId };
  if (typeof record.error === 'string') {
    const inner = depth < MAX_UNWRAP ? readErrorEnvelope(parseObject(record.error), depth + 1) : undefined;
    return withId(inner ?? { message: record.error });
  }
  const nested = asRecord(record.error);
  const source =
    nested ?? (record.object === 'error' || record.type === 'error' || isBareError(record) ? record : undefined);
  if (source !== undefined && source !== record.error && source === record && record.type === 'error') {
    // `{"type":"error","code","message","param","sequence_number"}` (OpenAI's Responses stream error
    // event) without an inner error object: its code and param are the error's; `type` only names the event.
    const facts = factsOf(record);
    return withId({ message: facts.message, code: facts.code, param: facts.param, status: facts.status });
  }
  if (source !== undefined) {
    const outer = factsOf(source);
    if (depth < MAX_UNWRAP) {
      const wrapped =
        asRecord(source.upstream_error) ??
        parseObject(asNonEmptyString(source.upstream_error)) ??
        parseObject(outer.message) ??
        parseObject(asNonEmptyString(asRecord(source.metadata)?.raw));
      const inner = wrapped === undefined ? undefined : readErrorEnvelope(wrapped, depth + 1);
      if (inner !== undefined && (inner.type !== undefined || inner.message !== undefined)) {
        return withId({
          message: inner.message ?? outer.message,
          type: inner.type ?? outer.type,
          code: inner.code ?? outer.code,
          param: inner.param ?? outer.param,
          status: outer.status ?? inner.status,
          requestId: inner.requestId,
        });
      }
    }
    return withId(outer);
  }
  if (typeof record.detail === 'string') return withId({ message: record.detail });
  if (Array.isArray(record.detail))
    return withId({ message: stringifyWire(record.detail, '(validation details nested too deep to show)') });
  return undefined;
}
