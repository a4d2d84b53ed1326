import {
  createModelProfile,
  createRefusedToolCall,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1StreamPart,
  type LanguageModelV1StreamResult,
  type LanguageModelV1ToolCall,
  type ModelProfile,
} from '@tiny/llm';
import { InvalidInputError } from '@tiny/tools';

/** One scripted answer: a partial response (missing fields get defaults), or a function of the request. */
export type ScriptedStep =
  | Partial<LanguageModelV1Response>
  | ((
      request: LanguageModelV1Request,
      index: number,
    ) => Partial<LanguageModelV1Response> | Promise<Partial<LanguageModelV1Response>>);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  return `a value that cannot be serialised (${typeof value})`;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Options for {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Answers in order; a call past the end throws (or repeats the last step with `repeatLast`). */
  readonly steps: readonly ScriptedStep[];
  readonly repeatLast?: boolean | undefined;
  /** Capabilities; defaults to `createModelProfile()` (native tool calling). */
  readonly profile?: Partial<ModelProfile> | undefined;
  /** Characters per `text_delta` and `tool_call_delta` part when streaming: an integer ≥ 1. Default 7. */
  readonly chunkSize?: number | undefined;
  /** Record every request (default true). Turn off for long benchmark runs. */
  readonly recordRequests?: boolean | undefined;
}

/** A call on a scripted response; `arguments` is sent as JSON text like a real provider would. */
export function scriptedToolCall(name: string, args: unknown, id?: string): LanguageModelV1ToolCall {
  return { id: id ?? '', name, arguments: args, rawArguments: JSON.stringify(args) };
}

/** A call whose arguments the provider could not decode: the raw text and the reason. */
export function scriptedInvalidToolCall(
  name: string,
  raw: string,
  reason: string,
  id?: string,
): LanguageModelV1ToolCall {
  return { id: id ?? '', name, arguments: raw, invalid: reason, rawArguments: raw };
}

/**
 * A call the adapter refused (`createRefusedToolCall` of `@tiny/llm`): the raw text (which may be
 * perfectly valid JSON) and the reason; the harness must never repair or run it. Streamed, it ends
 * with the refused call itself, as an adapter ends one.
 */
export function scriptedRefusedToolCall(
  name: string,
  raw: string,
  reason: string,
  id?: string,
): LanguageModelV1ToolCall {
  return { ...createRefusedToolCall(id ?? '', name, raw, reason), rawArguments: raw };
}

/**
 * A `LanguageModelV1` that answers from a script and records every request, for tests, demos and
 * benchmarks. Requests are recorded with a copy of the message list, so later changes to the
 * transcript do not rewrite history. Missing ids on scripted calls are minted `call-<n>`.
 * `doStream` rejects with `InvalidInputError` (naming the step and call) when a scripted call's
 * arguments cannot be sent as text (`undefined`, a cyclic value).
 */
export class ScriptedModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly profile: ModelProfile;
  /** Every request received, in order, with copies of its `messages` and `tools` arrays as they were sent. */
  readonly requests: LanguageModelV1Request[] = [];
  private readonly options: ScriptedModelOptions;
  private index = 0;
  private minted = 0;

  constructor(options: ScriptedModelOptions, modelId = 'scripted-model') {
    if (typeof options !== 'object' || options === null || !Array.isArray(options.steps))
      throw new InvalidInputError({ entryPoint: 'ScriptedModel', reason: '`steps` must be an array' });
    const chunkSize = options.chunkSize;
    if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1))
      throw new InvalidInputError({
        entryPoint: 'ScriptedModel',
        reason: `\`chunkSize\` must be an integer at least 1, got ${String(chunkSize)}`,
      });
    this.options = options;
    this.modelId = modelId;
    this.profile = createModelProfile(options.profile);
  }

  /** How many calls the model has answered. */
  get calls(): number {
    return this.index;
  }

  async doGenerate(request: LanguageModelV1Request): Promise<LanguageModelV1Response> {
    if (request.abortSignal?.aborted) throw request.abortSignal.reason;
    // Copies of the arrays as sent: a caller may reuse and change its arrays between requests.
    if (this.options.recordRequests !== false)
      this.requests.push({
        ...request,
        messages: [...request.messages],
        ...(request.tools === undefined ? {} : { tools: [...request.tools] }),
      });
    const { steps } = this.options;
    const position = this.index < steps.length ? this.index : this.options.repeatLast ? steps.length - 1 : -1;
    if (position < 0) throw new Error(`ScriptedModel: no step scripted for call ${this.index + 1}`);
    const step = steps[position] as ScriptedStep;
    const partial = typeof step === 'function' ? await step(request, this.index) : step;
    this.index += 1;
    const toolCalls = (partial.toolCalls ?? []).map((call) =>
      call.id === '' ? { ...call, id: `call-${++this.minted}` } : call,
    );
    return {
      content: '',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      warnings: [],
      ...partial,
      toolCalls,
      finishReason: partial.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    };
  }

  async doStream(request: LanguageModelV1Request): Promise<LanguageModelV1StreamResult> {
    const step = this.index + 1;
    const response = await this.doGenerate(request);
    const size = this.options.chunkSize ?? 7;
    // Argument text per call, read before streaming starts so a bad script fails the call itself.
    const texts = response.toolCalls.map((call, position) => {
      const text =
        call.rawArguments ?? (typeof call.arguments === 'string' ? call.arguments : safeJson(call.arguments));
      if (typeof text !== 'string') {
        throw new InvalidInputError({
          entryPoint: 'ScriptedModel.doStream',
          reason: `step ${step}: \`toolCalls[${position}].arguments\` (tool \`${call.name}\`) is ${describe(call.arguments)}, not JSON text or a JSON value`,
        });
      }
      return text;
    });
    async function* parts(): AsyncGenerator<LanguageModelV1StreamPart> {
      if (response.reasoning) yield { type: 'reasoning_delta', delta: response.reasoning };
      if (response.refusal) yield { type: 'refusal_delta', delta: response.refusal };
      for (let at = 0; at < response.content.length; at += size) {
        yield { type: 'text_delta', delta: response.content.slice(at, at + size) };
      }
      for (const [position, call] of response.toolCalls.entries()) {
        yield { type: 'tool_call_start', id: call.id, name: call.name };
        const text = texts[position] as string;
        for (let at = 0; at < text.length; at += size) {
          yield { type: 'tool_call_delta', id: call.id, argumentsDelta: text.slice(at, at + size) };
        }
        yield {
          type: 'tool_call_end',
          id: call.id,
          ...(call.invalid === undefined || call.refused === true ? { call } : {}),
        };
      }
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
    }
    return { stream: parts(), warnings: response.warnings };
  }
}
