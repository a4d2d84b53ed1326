import { asNonEmptyString, asNumber, asRecord, stringifyWire } from '@tiny/provider-utils';

/** The facts an error body may hold, in any of the shapes OpenAI-compatible servers use. @internal */
export interface ErrorBodyFacts {
  readonly message?: string | undefined;
  readonly type?: string | undefined;
  readonly code?: string | undefined;
  readonly param?: string | undefined;
  /** A numeric `code` that is an HTTP status (vLLM and llama.cpp put the status there). */
  readonly status?: number | undefined;
}

function codeOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return asNonEmptyString(value);
}

/**
 * Reads an error out of a parsed body, whichever shape the server used:
 * - OpenAI, Ollama, llama.cpp, newer vLLM: `{"error": {"message", "type", "param", "code"}}`;
 * - LM Studio: `{"error": "message"}`;
 * - older vLLM: `{"object": "error", "message", "type", "param", "code"}`;
 * - FastAPI validation: `{"detail": "message"}` (or a list of issues, kept as JSON unless it
 *   nests too deep to serialise safely);
 * - Gemini's OpenAI endpoint: `[{"error": {"code", "message", "status"}}]` (`status` read as the type).
 * Returns `undefined` when the body holds none of them.
 * @internal
 */
export function readErrorBody(body: unknown): ErrorBodyFacts | undefined {
  // Gemini's OpenAI endpoint wraps its error object in a one-element array.
  const record = asRecord(Array.isArray(body) ? body[0] : body);
  if (record === undefined) return undefined;
  if (typeof record.error === 'string') return { message: record.error };
  const nested = asRecord(record.error);
  const source = nested ?? (record.object === 'error' ? record : undefined);
  if (source !== undefined) {
    const status = asNumber(source.code);
    return {
      message: asNonEmptyString(source.message),
      type: asNonEmptyString(source.type) ?? asNonEmptyString(source.status),
      code: codeOf(source.code),
      param: asNonEmptyString(source.param),
      status: status !== undefined && status >= 400 && status <= 599 ? status : undefined,
    };
  }
  if (typeof record.detail === 'string') return { message: record.detail };
  if (Array.isArray(record.detail))
    return { message: stringifyWire(record.detail, '(validation details nested too deep to show)') };
  return undefined;
}
