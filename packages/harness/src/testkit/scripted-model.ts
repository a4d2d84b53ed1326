import {
  createModelProfile,
  type LanguageModelV1,
  type LanguageModelV1Request,
  type LanguageModelV1Response,
  type LanguageModelV1StreamPart,
  type LanguageModelV1StreamResult,
  type LanguageModelV1ToolCall,
  type ModelProfile,
} from '@tiny/llm';

/** One scripted answer: a partial response (missing fields get defaults), or a function of the request. */
export type ScriptedStep =
  | Partial<LanguageModelV1Response>
  | ((
      request: LanguageModelV1Request,
      index: number,
    ) => Partial<LanguageModelV1Response> | Promise<Partial<LanguageModelV1Response>>);

/** Options for {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Answers in order; a call past the end throws (or repeats the last step with `repeatLast`). */
  readonly steps: readonly ScriptedStep[];
  readonly repeatLast?: boolean | undefined;
  /** Capabilities; defaults to `createModelProfile()` (native tool calling). */
  readonly profile?: Partial<ModelProfile> | undefined;
  /** Characters per `text_delta` and `tool_call_delta` part when streaming. Default 7. */
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
 * A `LanguageModelV1` that answers from a script and records every request, for tests, demos and
 * benchmarks. Requests are recorded with a copy of the message list, so later changes to the
 * transcript do not rewrite history. Missing ids on scripted calls are minted `call-<n>`.
 */
export class ScriptedModel implements LanguageModelV1 {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  readonly profile: ModelProfile;
  /** Every request received, in order. */
  readonly requests: LanguageModelV1Request[] = [];
  private readonly options: ScriptedModelOptions;
  private index = 0;
  private minted = 0;

  constructor(options: ScriptedModelOptions, modelId = 'scripted-model') {
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
    if (this.options.recordRequests !== false) this.requests.push({ ...request, messages: [...request.messages] });
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
    const response = await this.doGenerate(request);
    const size = Math.max(1, this.options.chunkSize ?? 7);
    async function* parts(): AsyncGenerator<LanguageModelV1StreamPart> {
      if (response.reasoning) yield { type: 'reasoning_delta', delta: response.reasoning };
      if (response.refusal) yield { type: 'refusal_delta', delta: response.refusal };
      for (let at = 0; at < response.content.length; at += size) {
        yield { type: 'text_delta', delta: response.content.slice(at, at + size) };
      }
      for (const call of response.toolCalls) {
        yield { type: 'tool_call_start', id: call.id, name: call.name };
        const text =
          call.rawArguments ?? (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments));
        for (let at = 0; at < text.length; at += size) {
          yield { type: 'tool_call_delta', id: call.id, argumentsDelta: text.slice(at, at + size) };
        }
        yield { type: 'tool_call_end', id: call.id, ...(call.invalid === undefined ? { call } : {}) };
      }
      yield { type: 'finish', finishReason: response.finishReason, usage: response.usage };
    }
    return { stream: parts(), warnings: response.warnings };
  }
}
