import type {
  LanguageModelV1CallWarning,
  LanguageModelV1FinishReason,
  LanguageModelV1ToolCall,
  LanguageModelV1Usage,
} from '@tiny/llm';

type JsonValue = NonNullable<LanguageModelV1ToolCall['extraContent']>;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Maps a finish reason: V2's string or V3/V4's `{ unified, raw }`. `content-filter` and
 * `tool-calls` take our spelling. Anything else is not a normal end and becomes `error`, so a
 * harness refuses the calls of that turn: the SDK's `other` (a provider value the SDK could not
 * map, Mistral's `model_length` say), `unknown` (V2: no reason given), `interrupted` (V4) and any
 * value not in the spec. The raw reason is the provider's own when the spec carries it, else the
 * unified one.
 * @internal
 */
export function mapFinishReason(value: unknown): {
  finishReason: LanguageModelV1FinishReason;
  rawFinishReason?: string;
} {
  const record = asRecord(value);
  const unified = typeof value === 'string' ? value : typeof record?.unified === 'string' ? record.unified : 'unknown';
  const raw = typeof record?.raw === 'string' ? record.raw : unified;
  const table: Record<string, LanguageModelV1FinishReason> = {
    stop: 'stop',
    length: 'length',
    'content-filter': 'content_filter',
    'tool-calls': 'tool_calls',
    error: 'error',
  };
  return {
    finishReason: Object.hasOwn(table, unified) ? (table[unified] as LanguageModelV1FinishReason) : 'error',
    rawFinishReason: raw,
  };
}

/**
 * Maps usage: V2's flat counters, or V3/V4's `inputTokens: { total, cacheRead, ... }` and
 * `outputTokens: { total, reasoning, ... }`. Unreported counters stay absent; `totalTokens` is the
 * sum when both sides are known and V2 did not give it.
 * @internal
 */
export function mapUsage(value: unknown): LanguageModelV1Usage {
  const usage = asRecord(value);
  if (usage === undefined) return {};
  const input = asRecord(usage.inputTokens);
  const output = asRecord(usage.outputTokens);
  const result: { -readonly [K in keyof LanguageModelV1Usage]: number } = {};
  const set = (key: keyof LanguageModelV1Usage, count: number | undefined) => {
    if (count !== undefined) result[key] = count;
  };
  if (input !== undefined || output !== undefined) {
    set('inputTokens', asNumber(input?.total));
    set('outputTokens', asNumber(output?.total));
    set('reasoningTokens', asNumber(output?.reasoning));
    set('cachedInputTokens', asNumber(input?.cacheRead));
  } else {
    set('inputTokens', asNumber(usage.inputTokens));
    set('outputTokens', asNumber(usage.outputTokens));
    set('totalTokens', asNumber(usage.totalTokens));
    set('reasoningTokens', asNumber(usage.reasoningTokens));
    set('cachedInputTokens', asNumber(usage.cachedInputTokens));
  }
  if (result.totalTokens === undefined && result.inputTokens !== undefined && result.outputTokens !== undefined) {
    result.totalTokens = result.inputTokens + result.outputTokens;
  }
  return result;
}

/**
 * Maps warnings: V2 `unsupported-setting` / `unsupported-tool`, V3/V4 `unsupported` /
 * `compatibility`, and `other` of every version.
 * @internal
 */
export function mapWarnings(value: unknown): LanguageModelV1CallWarning[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item): LanguageModelV1CallWarning[] => {
    const warning = asRecord(item);
    const details = typeof warning?.details === 'string' ? { details: warning.details } : {};
    switch (warning?.type) {
      case 'unsupported-setting':
        return [{ type: 'unsupported_setting', setting: String(warning.setting), ...details }];
      case 'unsupported-tool':
        return [{ type: 'unsupported_tool', toolName: String(asRecord(warning.tool)?.name ?? ''), ...details }];
      case 'unsupported':
        return [{ type: 'unsupported_setting', setting: String(warning.feature), ...details }];
      case 'compatibility':
        return [
          {
            type: 'other',
            message: `${String(warning.feature)} is emulated${typeof warning.details === 'string' ? `: ${warning.details}` : ''}`,
          },
        ];
      case 'other':
        return [{ type: 'other', message: String(warning.message) }];
      default:
        return [];
    }
  });
}

/** A signature in provider metadata (`{ anthropic: { signature } }`, any provider key). @internal */
export function signatureOf(metadata: unknown): string | undefined {
  for (const entry of Object.values(asRecord(metadata) ?? {})) {
    const signature = asRecord(entry)?.signature;
    if (typeof signature === 'string' && signature !== '') return signature;
  }
  return undefined;
}

/** Provider metadata of a tool call kept as `extraContent` (Gemini thought signatures), when JSON. @internal */
export function extraContentOf(metadata: unknown): { extraContent?: JsonValue } {
  const record = asRecord(metadata);
  if (record === undefined || Object.keys(record).length === 0) return {};
  try {
    return { extraContent: JSON.parse(JSON.stringify(record)) as JsonValue };
  } catch {
    return {};
  }
}
