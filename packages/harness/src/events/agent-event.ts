import type { CallSource, LanguageModelV1CallWarning, ToolChoice, ToolFormat } from '@tiny/llm';
import type { JsonValue } from '@tiny/tools';
import type { ArtifactRef } from '../artifacts/artifact-store.js';
import type { EffectStatus } from '../ledger/tool-effect-ledger.js';
import type { PrefixChange } from '../prefix/diff-prefix.js';

/** Which budget ran out (`tool_depth`: a nested call deeper than the nesting limit, refused to its calling tool). */
export type LimitKind = 'model_calls' | 'tool_calls' | 'wall_clock' | 'tool_depth';

/** Why a model turn counts as broken (its tool calls are not trusted). */
export type BrokenTurnReason = 'length' | 'content_filter' | 'error';

/** How a run ended. */
export type RunOutcome = 'final' | 'return_direct' | 'terminated' | 'deferred' | 'stopped' | 'interrupted';

/**
 * Everything a run reports, as a discriminated union on `type` (noun first, then the verb).
 * Redacted by default: tool inputs and outputs (`input`, `output`), the model's arguments on
 * recovered calls (`arguments`) and streamed argument text of real tools (`tool_call_delta`) are
 * present only with `policy.captureToolIo`; names, ids, sizes and `metadata` (host-only) always
 * are. Even with capture on, a tool's sensitive fields (`"x-tiny-sensitive": true` in its schema,
 * or named in `policy.access.redact`) read `[redacted]`, and their values are scrubbed from result
 * and error text. Injected arguments are added after `input` is captured, so they never appear.
 */
export type AgentEvent =
  | { readonly type: 'run_started'; readonly runId: string }
  | {
      /**
       * The model read its server before this run (`autoProfile` of `@tiny/provider-openai` with
       * `autoProfile` of `@tiny/local`), once per server and model: what it decided and why. Comes
       * before `run_started`; the run's dialect is chosen from the decided profile.
       */
      readonly type: 'model_profiled';
      readonly modelId: string;
      /** The runtime recognised: `llamacpp`, `ollama`, `lmstudio`, `vllm`, `openai-compatible`, `unknown`. */
      readonly server: string;
      readonly contextLength?: number | undefined;
      /** Native tool calling; `false` means prompt-guided tools. */
      readonly toolCalling: boolean;
      readonly systemPrompt: 'system' | 'first_user';
      /** The call grammars the model writes, when the probe restricted them. */
      readonly toolCallFormats?: readonly string[] | undefined;
      /** One sentence per decision, and what could not be read. */
      readonly reasons: readonly string[];
    }
  | {
      readonly type: 'tools_advertised';
      /** Names of the tools on the first request, sorted. */
      readonly direct: readonly string[];
      /** Byte length of the compact JSON of the first request's schemas (direct tools and the discovery bridge). */
      readonly schemaBytes: number;
      /** How many deferred tools are searchable through `tool_search`. */
      readonly deferred: number;
      readonly dialect: string;
    }
  | { readonly type: 'turn_started'; readonly turn: number }
  | {
      readonly type: 'model_started';
      readonly modelCallId: string;
      readonly turn: number;
      /** Digest of the request's prompt prefix (tools, system, history); equal digests, byte-identical prefixes. */
      readonly prefixFingerprint?: string | undefined;
    }
  | {
      /**
       * The request about to be sent does not extend the previous request's prompt prefix, so a
       * provider prompt cache (or a local KV cache) cannot reuse all of it. Once per such request,
       * before its `model_started`; `changes` names every difference (appended tools and messages
       * are none). `lostPrefixTokens` estimates the previous prefix's tokens from the first change
       * on (four characters a token). A resumed run compares with the request before the pause.
       */
      readonly type: 'prompt_prefix_changed';
      readonly modelCallId: string;
      readonly turn: number;
      /** The new request's prefix digest (as on its `model_started`). */
      readonly fingerprint: string;
      readonly changes: readonly PrefixChange[];
      readonly lostPrefixTokens: number;
    }
  | { readonly type: 'model_delta'; readonly modelCallId: string; readonly delta: string }
  | {
      readonly type: 'model_completed';
      readonly modelCallId: string;
      readonly finishReason: string;
      readonly toolCallCount: number;
      /**
       * The provider's ids (as on `tool_call_delta`) of the native calls the adapter refused
       * (`ToolCall.refused`): they never run, so nothing read from their streamed argument text is
       * an answer. Absent when none was refused.
       */
      readonly refusedCallIds?: readonly string[] | undefined;
      readonly inputTokens?: number | undefined;
      readonly outputTokens?: number | undefined;
      /** Input tokens the provider read from its prompt cache (part of `inputTokens`), when it says. */
      readonly cachedInputTokens?: number | undefined;
      /** The model's refusal (`LanguageModelV1Response.refusal`), when it declined; its content is no answer. */
      readonly refusal?: string | undefined;
      /**
       * What the provider reported it did not honour or worked around for this call (a capability
       * rejection and the silent re-send in a fallback form, say); absent when nothing.
       */
      readonly warnings?: readonly LanguageModelV1CallWarning[] | undefined;
    }
  | {
      /**
       * Streaming only: the next piece of a native tool call's argument text, as the provider sent
       * it. For a registered tool only with `policy.captureToolIo` (never for one with sensitive
       * fields); always for a schema no tool backs (a structured-output tool).
       */
      readonly type: 'tool_call_delta';
      readonly modelCallId: string;
      /** The provider's id for the call (the admitted id may differ when the provider repeats ids). */
      readonly callId: string;
      readonly toolName: string;
      readonly argumentsDelta: string;
    }
  | { readonly type: 'model_retried'; readonly modelCallId: string; readonly attempt: number; readonly error: string }
  | { readonly type: 'tool_call_dropped'; readonly modelCallId: string; readonly nudge: number }
  | {
      /**
       * The response ignored the run's forced tool choice (`required` or a named tool without that
       * call, `none` with calls). `calledTools` names what it called (empty for prose); `attempt`
       * counts the responses that ignored it in a row; `action` is what `policy.toolChoiceIgnored`
       * did: `retry` (the turn is kept without its calls and the choice is spelled out once more),
       * `error` (the run ends with `ToolChoiceIgnoredError`) or `accept`. Calls under `none` never run.
       */
      readonly type: 'tool_choice_ignored';
      readonly modelCallId: string;
      readonly toolChoice: ToolChoice;
      readonly calledTools: readonly string[];
      readonly attempt: number;
      readonly action: 'retry' | 'error' | 'accept';
    }
  | {
      /**
       * A call read from a broken model turn was not run (`policy.brokenTurnCalls: 'refuse'`): the
       * model got a tool error saying why, and the call spent its budget slot.
       */
      readonly type: 'tool_call_refused';
      readonly modelCallId: string;
      readonly callId: string;
      readonly toolName: string;
      /** The turn's finish reason: `length` (cut off), `content_filter` or `error`. */
      readonly reason: BrokenTurnReason;
    }
  | {
      readonly type: 'tool_started';
      readonly callId: string;
      readonly toolName: string;
      readonly input?: unknown;
      readonly parentCallId?: string | undefined;
      /** The tool format the model wrote the call in (`json` for native and JSON calls, `xml`, `ptype`); absent for nested calls. */
      readonly format?: ToolFormat['type'] | undefined;
      /** The grammar the call was read with (`native`, `tagged_json`, `xml_element`, `ptype`, …); absent for nested calls. */
      readonly grammar?: CallSource | undefined;
    }
  | {
      readonly type: 'tool_completed';
      readonly callId: string;
      readonly toolName: string;
      /** As on `tool_started`: the tool format the call was written in. */
      readonly format?: ToolFormat['type'] | undefined;
      /** As on `tool_started`: the grammar the call was read with. */
      readonly grammar?: CallSource | undefined;
      readonly startedAtMs: number;
      readonly durationMs: number;
      readonly outputBytes: number;
      readonly output?: string | undefined;
      /** The error text fed to the model, when the result is an error. */
      readonly error?: string | undefined;
      readonly metadata?: JsonValue | undefined;
      /** References to what the artifact store took from this result (never the bytes); absent when nothing. */
      readonly artifacts?: readonly ArtifactRef[] | undefined;
      readonly parentCallId?: string | undefined;
    }
  | {
      readonly type: 'tool_failed';
      readonly callId: string;
      readonly toolName: string;
      readonly startedAtMs: number;
      readonly durationMs: number;
      readonly error: string;
      readonly parentCallId?: string | undefined;
    }
  | {
      readonly type: 'tool_progress';
      readonly callId: string;
      readonly message: string;
      readonly fraction?: number | undefined;
      readonly partial?: JsonValue | undefined;
    }
  | { readonly type: 'custom'; readonly callId?: string | undefined; readonly payload: JsonValue }
  | {
      readonly type: 'unknown_tool_call';
      readonly callId: string;
      readonly requestedName: string;
      /** The model's arguments, verbatim; only with `policy.captureToolIo`. */
      readonly arguments?: unknown;
      /** `tool_error`, or `rewrite:<tool>`. */
      readonly recovery: string;
    }
  | {
      readonly type: 'invalid_tool_args';
      readonly callId: string;
      readonly toolName: string;
      /**
       * The model's arguments (the raw string for unparseable ones); only with `policy.captureToolIo`,
       * sensitive fields `[redacted]` (a raw string of a tool with sensitive fields whole).
       */
      readonly arguments?: unknown;
      readonly error: string;
      readonly recovery: 'tool_error' | 'repaired' | 'normalized';
    }
  | { readonly type: 'tool_deferred'; readonly callId: string; readonly toolName: string; readonly reason: string }
  /**
   * A tool's `execute` returned `undefined`; the model was sent `sent` (an empty text). Emitted the
   * first time each tool does it in a run.
   */
  | { readonly type: 'tool_returned_undefined'; readonly toolName: string; readonly sent: '' }
  | { readonly type: 'limit_reached'; readonly limitKind: LimitKind; readonly limit: number }
  | {
      readonly type: 'turn_completed';
      readonly turn: number;
      readonly toolResultCount: number;
      readonly toolCallIds: readonly string[];
    }
  | { readonly type: 'control_applied'; readonly control: string; readonly detail: string; readonly by: string }
  | {
      readonly type: 'tools_filtered';
      readonly by: string;
      /** Names withheld from the model this turn, in catalogue order. */
      readonly excluded: readonly string[];
      readonly remaining: number;
      readonly reasons?: Readonly<Record<string, string>> | undefined;
      /** What each withholding or renaming adaptor did (toolsets). */
      readonly explanations?:
        | readonly {
            readonly name: string;
            readonly kind: string;
            readonly from?: string | undefined;
            readonly to?: string | undefined;
          }[]
        | undefined;
    }
  | {
      /**
       * A toolset that pins tool definitions (an MCP server's, say) listed a tool it had not
       * listed before: added or renamed mid-session, or not in its pin file. Reported through
       * `ToolSetContext.emit`, at the run's next listing or call of that toolset.
       */
      readonly type: 'tool_definition_added';
      /** The reporting toolset's `label` (`mcp:<server>`). */
      readonly toolSet: string;
      /** The toolset's own name for the tool (an MCP server's tool name, before any prefix). */
      readonly toolName: string;
      /** SHA-256 (hex) of the definition as listed. */
      readonly current: string;
      /** True when the tool is not offered until the host approves this digest. */
      readonly withheld: boolean;
    }
  | {
      /**
       * A pinning toolset listed a tool whose definition (description, schemas, annotations, ...)
       * differs from the one it last listed. `changed` names the parts that differ from the pin
       * (empty when the definition is the pinned one again). While `withheld`, the tool is not
       * offered, and an admitted call to it is refused rather than run under the new definition.
       */
      readonly type: 'tool_definition_changed';
      readonly toolSet: string;
      readonly toolName: string;
      readonly changed: readonly string[];
      /** SHA-256 of the pinned (approved) definition; absent for a tool never approved. */
      readonly pinned?: string | undefined;
      readonly current: string;
      readonly withheld: boolean;
    }
  | {
      /** A pinning toolset no longer lists a tool it listed before (removed, or renamed). */
      readonly type: 'tool_definition_removed';
      readonly toolSet: string;
      readonly toolName: string;
      /** SHA-256 of the definition last listed. */
      readonly previous: string;
    }
  | {
      readonly type: 'tool_searched';
      readonly callId: string;
      /** Empty unless tool I/O capture is on. */
      readonly query: string;
      readonly matched: readonly string[];
      readonly ranker: string;
      readonly topConfidence?: number | undefined;
      readonly fallback?: string | undefined;
      readonly shadowMatched?: readonly string[] | undefined;
      readonly latencyMs: number;
    }
  | {
      readonly type: 'deferred_tool_call';
      readonly callId: string;
      readonly toolName: string;
      readonly via: 'name' | 'tool_call';
    }
  | {
      readonly type: 'tool_approved';
      readonly callId: string;
      readonly toolName: string;
      /** True when the host approved with edited arguments (`approveWithArgs`): what runs is not what the model sent. */
      readonly edited: boolean;
      /**
       * The edited arguments the call runs with (only with tool I/O capture on, like
       * `tool_started.input`; the tool's sensitive fields read `[redacted]`). The model reads them
       * too: its tool result opens with a note that the host edited the call.
       */
      readonly arguments?: unknown;
    }
  | { readonly type: 'tool_denied'; readonly callId: string; readonly toolName: string; readonly message: string }
  | {
      readonly type: 'output_retry';
      readonly schemaName: string;
      /** 1-based. */
      readonly attempt: number;
      readonly errorKind: 'parse' | 'validation' | 'missing' | 'multiple' | 'validator';
      readonly error: string;
    }
  | {
      readonly type: 'output_fallback';
      readonly schemaName: string;
      readonly from: string;
      readonly to: string;
      readonly reason: string;
    }
  | {
      readonly type: 'tool_effect_reconciled';
      readonly callId: string;
      readonly toolName: string;
      readonly action: 're_execute' | 'interrupted';
      /**
       * The ledger row's status when the resume found it: `started` (the crash hit while the call
       * ran), `interrupted` (an earlier resume already settled it and crashed too; the effect is still
       * unknown), `completed` or `failed` (the call ended, its answer was lost).
       */
      readonly recorded: EffectStatus;
    }
  | {
      readonly type: 'ledger_write_failed';
      readonly callId: string;
      readonly phase: 'started' | 'settled';
      /** `aborted`: the call was not run; `continued`: it ran unrecorded; `ignored`: a settle write failed. */
      readonly action: 'aborted' | 'continued' | 'ignored';
      readonly error: string;
    }
  | { readonly type: 'run_completed'; readonly runId: string; readonly outcome: RunOutcome }
  | { readonly type: 'run_failed'; readonly runId: string; readonly error: string };

/** The `type` of an {@link AgentEvent}. */
export type AgentEventType = AgentEvent['type'];

/** The event of one type. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;
