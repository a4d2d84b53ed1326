import {
  type LanguageModelV1CallWarning,
  type LanguageModelV1FinishReason,
  type LanguageModelV1Response,
  type LanguageModelV1ToolCall,
  type LanguageModelV1Usage,
  ModelCallError,
} from '@tiny/llm';
import type { JsonValue } from '@tiny/tools';

/** The `usage` counters of the provider contract: each a number, or absent. */
const USAGE_KEYS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

/** How deep a tool call's `extraContent` may nest before it is refused (a JSON parser's own limit is similar). */
const MAX_EXTRA_CONTENT_DEPTH = 256;

/** A field that breaks the provider contract, described; thrown inside this module only. */
class BrokenField extends Error {}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  throw new BrokenField(`\`${field}\` must be a string, got ${kindOf(value)}`);
}

function optionalText(field: string, value: unknown): string | undefined {
  return value === undefined ? undefined : text(field, value);
}

/** A copy of a JSON value, each property read once, or a `BrokenField` when it is not plain JSON data. */
function copyJson(field: string, value: unknown, depth: number): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (depth > MAX_EXTRA_CONTENT_DEPTH)
    throw new BrokenField(`\`${field}\` nests deeper than ${MAX_EXTRA_CONTENT_DEPTH}`);
  if (Array.isArray(value)) return value.map((item) => copyJson(field, item, depth + 1));
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null) {
      const copy: Record<string, JsonValue> = {};
      for (const key of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[key];
        if (key === 'toJSON') throw new BrokenField(`\`${field}\` must be JSON data, it has its own \`toJSON\``);
        if (item !== undefined) copy[key] = copyJson(field, item, depth + 1);
      }
      return copy;
    }
  }
  throw new BrokenField(`\`${field}\` must be JSON data, got ${kindOf(value)}`);
}

/** `field` of tool call `index` as a string: the path is written only when it breaks the contract. */
function callText(index: number, field: string, value: unknown): string {
  if (typeof value === 'string') return value;
  return text(`toolCalls[${index}].${field}`, value);
}

/** A copy of one tool-call entry, each field read once and checked. */
function copyToolCall(entry: unknown, index: number): LanguageModelV1ToolCall {
  if (!isRecord(entry)) throw new BrokenField(`\`toolCalls[${index}]\` must be an object, got ${kindOf(entry)}`);
  const id = callText(index, 'id', entry.id);
  const name = callText(index, 'name', entry.name);
  const args = entry.arguments;
  const invalid = entry.invalid === undefined ? undefined : callText(index, 'invalid', entry.invalid);
  const refused = entry.refused;
  if (refused !== undefined && refused !== true)
    throw new BrokenField(`\`toolCalls[${index}].refused\` must be true when set, got ${kindOf(refused)}`);
  const raw = entry.rawArguments;
  const rawArguments = raw === undefined ? undefined : callText(index, 'rawArguments', raw);
  const extra = entry.extraContent;
  const extraContent = extra === undefined ? undefined : copyJson(`toolCalls[${index}].extraContent`, extra, 0);
  // Field by field in the contract's order (no object spread per call).
  const copy: { -readonly [K in keyof LanguageModelV1ToolCall]: LanguageModelV1ToolCall[K] } = {
    id,
    name,
    arguments: args,
  };
  if (invalid !== undefined) copy.invalid = invalid;
  if (refused !== undefined) copy.refused = refused;
  if (rawArguments !== undefined) copy.rawArguments = rawArguments;
  if (extraContent !== undefined) copy.extraContent = extraContent;
  return copy;
}

function copyUsage(value: unknown): LanguageModelV1Usage {
  if (!isRecord(value)) throw new BrokenField(`\`usage\` must be an object, got ${kindOf(value)}`);
  const usage: Record<string, number> = {};
  for (const key of USAGE_KEYS) {
    const count = value[key];
    if (count === undefined) continue;
    if (typeof count !== 'number')
      throw new BrokenField(`\`usage.${key}\` must be a number when set, got ${kindOf(count)}`);
    usage[key] = count;
  }
  return usage as LanguageModelV1Usage;
}

/** The harness's own copy of `response`: each field read once, checked, and the copy holds what was read. */
function copyResponse(response: unknown): LanguageModelV1Response {
  if (!isRecord(response)) throw new BrokenField(`the response is ${kindOf(response)}`);
  const content = text('content', response.content);
  const reasoning = optionalText('reasoning', response.reasoning);
  const refusal = optionalText('refusal', response.refusal);
  const finishReason = response.finishReason;
  // An odd primitive (missing, null, a number) is read as a broken turn (`finishReason` is an
  // allow-list), not refused here; an object would be recorded as the provider's live value.
  if ((typeof finishReason === 'object' && finishReason !== null) || typeof finishReason === 'function')
    throw new BrokenField(`\`finishReason\` must be a string, got ${kindOf(finishReason)}`);
  const calls = response.toolCalls;
  if (!Array.isArray(calls)) throw new BrokenField(`\`toolCalls\` must be an array, got ${kindOf(calls)}`);
  const toolCalls = calls.map(copyToolCall);
  const warnings = response.warnings;
  if (!Array.isArray(warnings)) throw new BrokenField(`\`warnings\` must be an array, got ${kindOf(warnings)}`);
  const usage = copyUsage(response.usage);
  const copy: Record<string, unknown> = {
    content,
    toolCalls,
    finishReason: finishReason as LanguageModelV1FinishReason,
    usage,
    warnings: [...warnings] as LanguageModelV1CallWarning[],
  };
  if (reasoning !== undefined) copy.reasoning = reasoning;
  if (refusal !== undefined) copy.refusal = refusal;
  // Fields the run passes on without recording them as its own values, read once.
  for (const key of ['id', 'modelId', 'reasoningSignature', 'rawFinishReason', 'choices', 'request', 'response']) {
    const value = response[key];
    if (value !== undefined) copy[key] = value;
  }
  return copy as unknown as LanguageModelV1Response;
}

/**
 * The harness's own copy of `response`, made when the fields the run reads and records have the
 * types `LanguageModelV1Response` declares (`content`, `reasoning`, `refusal`, `finishReason`, each
 * tool-call entry, `warnings`, the `usage` counters). Each field is read once and the copy holds
 * what was read, so a getter cannot pass the check with one value and be recorded with another; a
 * response that breaks the contract is never recorded, summed or parsed.
 *
 * @throws {ModelCallError} `kind: 'protocol_violation'` (not retryable), naming the first field that breaks it.
 * @internal
 */
export function checkModelResponse(response: LanguageModelV1Response, provider: string): LanguageModelV1Response {
  try {
    return copyResponse(response);
  } catch (error) {
    // A getter that throws breaks the contract too: it is refused the same way, its error kept as the cause.
    const broken = error instanceof BrokenField ? error.message : 'reading a field threw';
    throw new ModelCallError({
      message: `the model's response breaks the provider contract: ${broken}`,
      kind: 'protocol_violation',
      provider,
      ...(error instanceof BrokenField ? {} : { cause: error }),
    });
  }
}
