import type { Context, Tracer } from '@opentelemetry/api';

/** Options for {@link createOtelListener}. */
export interface OtelListenerOptions {
  /** Where spans go: `trace.getTracer('my-app')` from a configured SDK. */
  readonly tracer: Tracer;
  /**
   * Record content: tool arguments and results (`gen_ai.tool.call.arguments` / `.result`), the
   * model's streamed text (`gen_ai.output.messages`), the arguments and detail of recovered calls,
   * progress messages and denial messages. Default false. Tool inputs and outputs reach events only
   * when the harness runs with `policy.captureToolIo`, so both must be on to see them.
   */
  readonly captureContent?: boolean | undefined;
  /** `gen_ai.request.model` on the agent and chat spans, and the chat span name (`chat <model>`). */
  readonly modelName?: string | undefined;
  /** `gen_ai.provider.name` (`openai`, `anthropic`, ...). */
  readonly provider?: string | undefined;
  /** `gen_ai.agent.name`; the run span is named `invoke_agent <agentName>` (else `invoke_agent`). */
  readonly agentName?: string | undefined;
  /** Parent of each run span. Default: the active context when `run_started` arrives. */
  readonly parentContext?: Context | undefined;
  /** Most characters per captured content attribute (longer values are cut and marked). Default 8192. */
  readonly maxContentLength?: number | undefined;
  /** Clock in epoch milliseconds for spans and events whose event carries no time. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/** @internal */
export interface ResolvedOtelListenerOptions {
  readonly tracer: Tracer;
  readonly captureContent: boolean;
  readonly modelName: string | undefined;
  readonly provider: string | undefined;
  readonly agentName: string | undefined;
  readonly parentContext: Context | undefined;
  readonly maxContentLength: number;
  readonly now: () => number;
}

/** @internal */
export function resolveOtelListenerOptions(options: OtelListenerOptions): ResolvedOtelListenerOptions {
  return {
    tracer: options.tracer,
    captureContent: options.captureContent ?? false,
    modelName: options.modelName,
    provider: options.provider,
    agentName: options.agentName,
    parentContext: options.parentContext,
    maxContentLength: options.maxContentLength ?? 8192,
    now: options.now ?? Date.now,
  };
}
