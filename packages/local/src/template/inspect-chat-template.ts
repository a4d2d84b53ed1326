import { Template } from '@huggingface/jinja';
import { type CallGrammar, createModelProfile, type ModelProfile, type SystemPromptPlacement } from '@tiny/llm';
import { InvalidInputError } from '@tiny/tools';
import { ChatTemplateError } from '../errors/chat-template-error.js';
import { detectCallGrammar } from './detect-call-grammar.js';
import { renderProbesInChildProcess } from './render-in-process.js';
import { type ProbeInput, type ProbeRenderResult, type Rendering, renderProbes } from './render-probes.js';

/** Options of {@link inspectChatTemplate}. */
export interface InspectChatTemplateOptions {
  /** `bos_token` handed to the template. Default `<s>`. */
  readonly bosToken?: string | undefined;
  /** `eos_token` handed to the template. Default `</s>`. */
  readonly eosToken?: string | undefined;
  /** Extra template variables for every probe (`{ enable_thinking: false }`, ...). */
  readonly context?: Readonly<Record<string, unknown>> | undefined;
  /** Longest template accepted, in characters; a longer one is refused unread. Default 262144 (256 KiB). */
  readonly maxTemplateChars?: number | undefined;
  /** Longest text one probe may render, in characters. Default 1048576 (1 MiB). */
  readonly maxOutputChars?: number | undefined;
}

/** Options of {@link inspectChatTemplate}: those of {@link inspectTrustedChatTemplate}, and the renderer's bounds. */
export interface BoundedInspectChatTemplateOptions extends InspectChatTemplateOptions {
  /**
   * Bound on rendering every probe together, the renderer's start included; the renderer is killed
   * past it. Default 5000 ms.
   */
  readonly renderTimeoutMs?: number | undefined;
  /** Heap of the renderer (its old generation, `--max-old-space-size`), in MiB. Default 128. */
  readonly maxRenderHeapMb?: number | undefined;
  /** Ends the inspection (and kills the renderer) with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/** What a chat template does with reasoning. */
export interface ChatTemplateReasoning {
  /** The template handles reasoning in some form (a field, `<think>` tags or a Harmony analysis channel). */
  readonly supported: boolean;
  /** The message field it reads reasoning from, when it reads one. */
  readonly field: 'reasoning_content' | 'thinking' | undefined;
  /** The tags it writes reasoning in, when it names them. */
  readonly tags: { readonly open: string; readonly close: string } | undefined;
  /** A past assistant turn's reasoning is rendered back into the prompt. */
  readonly keptInHistory: boolean;
  /** The generation prompt itself opens a `<think>` block (the model starts inside its reasoning). */
  readonly generationOpensThink: boolean;
}

/** What {@link inspectChatTemplate} found out, and the profile built from it. */
export interface ChatTemplateReport {
  /** Where the system prompt goes: `system` when system text survives every probe, else `first_user`. */
  readonly systemPrompt: SystemPromptPlacement;
  /** What the template does with a system message: renders it, drops it silently, or throws. */
  readonly systemRole: 'kept' | 'dropped' | 'rejected';
  /**
   * The template can drive native tool calling: it declares the `tools` it is given, renders an
   * assistant turn's `tool_calls` and renders `tool` messages.
   */
  readonly nativeTools: boolean;
  /** The `tools` list given to the template shows up in the prompt. */
  readonly toolDeclarations: boolean;
  /** A `tool` message's content shows up in the prompt. */
  readonly toolRole: boolean;
  /** An assistant turn's `tool_calls` show up in the prompt. */
  readonly assistantToolCalls: boolean;
  /** The `arguments` shape the template renders calls with: an object, or only a JSON string. */
  readonly toolCallArguments: 'object' | 'string' | undefined;
  /** The call grammar the template teaches, as the grammar names of `@tiny/llm`; absent when unknown. */
  readonly toolCallFormats: readonly CallGrammar[] | undefined;
  readonly reasoning: ChatTemplateReasoning;
  /** The text `add_generation_prompt: true` appends to a conversation, when it only appends. */
  readonly generationPrompt: string | undefined;
  /** Why each choice was made, one sentence each. */
  readonly notes: readonly string[];
  /** A model profile built from the above (`toolCalling`, `systemPrompt`, `toolCallFormats`). */
  readonly profile: ModelProfile;
}

type ProbeMessage = Record<string, unknown>;

// Probe texts: markers no template writes on its own, so finding one in the output means the
// template rendered that part of the input.
const SYSTEM_MARK = 'TINY-PROBE-SYSTEM-7c1e';
const SYSTEM_TEXT = `You are a careful assistant.\n\n## Tool Use Protocol\nFollow these rules (${SYSTEM_MARK}).`;
const USER_TEXT = 'What does the probe find? TINY-PROBE-USER-41ab';
const REPLY_TEXT = 'The probe found it. TINY-PROBE-REPLY-0d2f';
const FOLLOW_UP_TEXT = 'And then? TINY-PROBE-USER-93c0';
const TOOL_NAME = 'tiny_probe_lookup';
const ARG_KEY = 'query';
const ARG_MARK = 'TINY-PROBE-ARG-77b2';
const RESULT_MARK = 'TINY-PROBE-RESULT-5c8d';
const THINK_MARK = 'TINY-PROBE-THINK-e410';
const CALL_ID = 'abc123XYZ'; // 9 alphanumerics: the Mistral templates insist on that shape.

const TOOLS = [
  {
    type: 'function',
    function: {
      name: TOOL_NAME,
      description: 'Look a word up.',
      // Every field described: Hermes 3 pipes parameter descriptions through `trim`, which
      // `@huggingface/jinja` refuses on an undefined value.
      parameters: {
        type: 'object',
        properties: { [ARG_KEY]: { type: 'string', description: 'The word to look up.' } },
        required: [ARG_KEY],
      },
    },
  },
];

const system = { role: 'system', content: SYSTEM_TEXT };
const user = { role: 'user', content: USER_TEXT };
const reply = { role: 'assistant', content: REPLY_TEXT };
const followUp = { role: 'user', content: FOLLOW_UP_TEXT };
const merged = { role: 'user', content: `${SYSTEM_TEXT}\n\n${USER_TEXT}` };
const toolResult = { role: 'tool', tool_call_id: CALL_ID, name: TOOL_NAME, content: RESULT_MARK };
const callTurn = (args: unknown): ProbeMessage => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id: CALL_ID, type: 'function', function: { name: TOOL_NAME, arguments: args } }],
});

const probe = <const Name extends string>(
  name: Name,
  messages: readonly ProbeMessage[],
  tools?: unknown,
  addGenerationPrompt = true,
): ProbeInput & { readonly name: Name } => ({
  name,
  messages,
  ...(tools === undefined ? {} : { tools }),
  addGenerationPrompt,
});

/** The probe conversations, as plain data (they cross into the renderer's process). */
const PROBES = [
  probe('system', [system, user]),
  probe('system_multi_turn', [system, user, reply, followUp]),
  probe('first_user', [merged]),
  probe('first_user_multi_turn', [merged, reply, followUp]),
  probe('tools', [user], TOOLS),
  // Some templates (DeepSeek V3.1) declare tools only beside a system message.
  probe('tools_with_system', [system, user], TOOLS),
  probe('tool_round_object', [user, callTurn({ [ARG_KEY]: ARG_MARK }), toolResult], TOOLS),
  probe('tool_round_string', [user, callTurn(JSON.stringify({ [ARG_KEY]: ARG_MARK })), toolResult], TOOLS),
  probe('reasoning', [user, { ...reply, reasoning_content: THINK_MARK, thinking: THINK_MARK }], undefined, false),
  probe('generation_on', [user], undefined, true),
  probe('generation_off', [user], undefined, false),
] as const;

type ProbeName = (typeof PROBES)[number]['name'];

const DEFAULT_MAX_TEMPLATE_CHARS = 256 * 1024;
const DEFAULT_MAX_OUTPUT_CHARS = 1024 * 1024;
const DEFAULT_RENDER_TIMEOUT_MS = 5000;
const DEFAULT_MAX_RENDER_HEAP_MB = 128;

function positive(entryPoint: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!(Number.isFinite(value) && value > 0))
    throw new InvalidInputError({ entryPoint, reason: `${name} must be a positive number` });
  return value;
}

/** The render input, once the template's size is within its bound. */
function renderInput(entryPoint: string, template: string, options: InspectChatTemplateOptions | undefined) {
  const maxTemplateChars = positive(
    entryPoint,
    'maxTemplateChars',
    options?.maxTemplateChars,
    DEFAULT_MAX_TEMPLATE_CHARS,
  );
  const maxOutputChars = positive(entryPoint, 'maxOutputChars', options?.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS);
  if (template.length > maxTemplateChars) {
    throw new ChatTemplateError({
      failure: 'limit',
      limit: 'template_size',
      probes: [
        { probe: 'size', error: `the template has ${template.length} characters, more than ${maxTemplateChars}` },
      ],
    });
  }
  const base = { bos_token: options?.bosToken ?? '<s>', eos_token: options?.eosToken ?? '</s>', ...options?.context };
  return { template, base, probes: PROBES, maxOutputChars };
}

/**
 * Reads a Jinja chat template the way a local server renders it (`@huggingface/jinja`, the
 * engine LM Studio uses; llama.cpp and vLLM render the same text for these inputs) and reports
 * what it supports, by rendering probe conversations and looking for each part of the input in the
 * output: whether system text survives (else `systemPrompt: 'first_user'`, the placement that
 * merges the system prompt and tool instructions into the first user turn), whether tools, tool
 * results and assistant calls are rendered (`nativeTools`), the call grammar it teaches, its
 * reasoning handling and generation prompt. No model runs; nothing leaves the machine.
 *
 * A template is code: the probes render in a child Node process with a bounded heap
 * (`maxRenderHeapMb`), killed past `renderTimeoutMs` or when `signal` aborts, a template longer than
 * `maxTemplateChars` is refused unread, and a probe rendering more than `maxOutputChars` ends the
 * inspection. A template that hits any bound fails closed: nothing is decided from it.
 *
 * @throws {ChatTemplateError} of failure `parse` when the template does not parse, `render` when
 *   it throws on every probe (the message names the first probe and its error), or `limit` when it
 *   hits a bound (`error.limit` names it: `template_size`, `time`, `memory`, `stack`, `output`).
 * @throws {InvalidInputError} when a bound is not a positive number.
 * @throws the signal's reason when `signal` aborts.
 */
export async function inspectChatTemplate(
  template: string,
  options?: BoundedInspectChatTemplateOptions,
): Promise<ChatTemplateReport> {
  const entryPoint = 'inspectChatTemplate';
  const input = renderInput(entryPoint, template, options);
  const timeoutMs = positive(entryPoint, 'renderTimeoutMs', options?.renderTimeoutMs, DEFAULT_RENDER_TIMEOUT_MS);
  const maxHeapMb = positive(entryPoint, 'maxRenderHeapMb', options?.maxRenderHeapMb, DEFAULT_MAX_RENDER_HEAP_MB);
  const result = await renderProbesInChildProcess(input, { timeoutMs, maxHeapMb, signal: options?.signal });
  return report(template, result);
}

/**
 * {@link inspectChatTemplate} in the calling thread, synchronously, for templates you trust (your
 * own, or one shipped with your code). The size and output bounds hold and a call-stack overflow
 * fails typed, but nothing bounds its time or memory: a template that loops or allocates without
 * end hangs or exhausts the process. Never use it on a template a server or a user supplied.
 *
 * @throws {ChatTemplateError} as {@link inspectChatTemplate} does, except for the `time` bound.
 * @throws {InvalidInputError} when a bound is not a positive number.
 */
export function inspectTrustedChatTemplate(template: string, options?: InspectChatTemplateOptions): ChatTemplateReport {
  const input = renderInput('inspectTrustedChatTemplate', template, options);
  return report(template, renderProbes(Template, input));
}

function report(template: string, result: ProbeRenderResult): ChatTemplateReport {
  if (result.kind === 'parse')
    throw new ChatTemplateError({ failure: 'parse', probes: [{ probe: 'parse', error: result.error }] });
  if (result.kind === 'limit') {
    throw new ChatTemplateError({
      failure: 'limit',
      limit: result.limit,
      probes: [{ probe: result.probe, error: result.detail }],
    });
  }
  const probes = Object.fromEntries(
    PROBES.map(({ name }) => [name, result.renderings[name] ?? { ok: false, error: 'not rendered' }]),
  ) as Record<ProbeName, Rendering>;
  const failures = Object.entries(probes).flatMap(([probe, rendering]) =>
    rendering.ok ? [] : [{ probe, error: rendering.error }],
  );
  if (failures.length === PROBES.length) throw new ChatTemplateError({ failure: 'render', probes: failures });

  const notes: string[] = [];
  const has = (rendering: Rendering, mark: string): boolean => rendering.ok && rendering.text.includes(mark);

  // System placement: `system` only when the system text survives both a first turn and a later one.
  const systemKept = has(probes.system, SYSTEM_MARK) && has(probes.system_multi_turn, SYSTEM_MARK);
  const systemRole = systemKept ? 'kept' : probes.system.ok && probes.system_multi_turn.ok ? 'dropped' : 'rejected';
  const firstUserKept = has(probes.first_user, SYSTEM_MARK) && has(probes.first_user_multi_turn, SYSTEM_MARK);
  const systemPrompt: SystemPromptPlacement = systemKept ? 'system' : 'first_user';
  if (systemRole === 'kept') notes.push('system text survives a system message: systemPrompt system');
  else {
    const failed = [probes.system, probes.system_multi_turn].find((rendering) => !rendering.ok);
    const why =
      systemRole === 'rejected' && failed !== undefined && !failed.ok
        ? `the template throws on a system message ("${failed.error}")`
        : 'the template drops the system message';
    notes.push(
      firstUserKept
        ? `${why}: systemPrompt first_user (system text merged into the first user turn survives)`
        : `${why}, and system text in the first user turn does not survive either: systemPrompt first_user`,
    );
  }

  // Tools: declared, calls replayed, results replayed.
  const toolDeclarations = has(probes.tools, TOOL_NAME) || has(probes.tools_with_system, TOOL_NAME);
  const round = [
    ['object', probes.tool_round_object],
    ['string', probes.tool_round_string],
  ] as const;
  const fullRound = round.find(([, rendering]) => has(rendering, ARG_MARK) && has(rendering, RESULT_MARK));
  const anyCalls = round.find(([, rendering]) => has(rendering, ARG_MARK));
  const assistantToolCalls = anyCalls !== undefined;
  const toolRole = round.some(([, rendering]) => has(rendering, RESULT_MARK));
  const toolCallArguments = (fullRound ?? anyCalls)?.[0];
  const nativeTools = toolDeclarations && fullRound !== undefined;
  if (nativeTools)
    notes.push(`declares tools and replays calls (${toolCallArguments} arguments) and results: native tools`);
  else {
    const missing = [
      toolDeclarations ? undefined : 'tool declarations',
      assistantToolCalls ? undefined : 'assistant tool calls',
      toolRole ? undefined : 'tool results',
    ].filter((part) => part !== undefined);
    notes.push(`renders no ${missing.join(', ') || 'complete tool round'}: prompt-guided tools`);
  }

  // The grammar it teaches: from what it rendered, else from its source.
  const rendered = [probes.tools, probes.tools_with_system, fullRound?.[1] ?? anyCalls?.[1]]
    .flatMap((rendering) => (rendering?.ok ? [rendering.text] : []))
    .join('\n');
  const grammar =
    detectCallGrammar(rendered) ??
    (toolDeclarations || /\btools\b/.test(template) ? detectCallGrammar(template) : undefined);
  if (grammar !== undefined) notes.push(`teaches the ${grammar} call grammar`);

  // Reasoning and the generation prompt.
  const generationPrompt =
    probes.generation_on.ok &&
    probes.generation_off.ok &&
    probes.generation_on.text.startsWith(probes.generation_off.text)
      ? probes.generation_on.text.slice(probes.generation_off.text.length)
      : undefined;
  const field = template.includes('reasoning_content')
    ? 'reasoning_content'
    : /\.thinking\b|\[['"]thinking['"]\]/.test(template)
      ? 'thinking'
      : undefined;
  const tags = template.includes('<think>') ? { open: '<think>', close: '</think>' } : undefined;
  const generationOpensThink = generationPrompt?.trimEnd().endsWith('<think>') === true;
  const reasoning: ChatTemplateReasoning = {
    supported: field !== undefined || tags !== undefined || template.includes('<|channel|>analysis'),
    field,
    tags,
    keptInHistory: has(probes.reasoning, THINK_MARK),
    generationOpensThink,
  };
  if (generationOpensThink) notes.push('the generation prompt opens a <think> block');

  const profile = createModelProfile({
    toolCalling: nativeTools,
    systemPrompt,
    ...(grammar === undefined ? {} : { toolCallFormats: [grammar] }),
  });
  return {
    systemPrompt,
    systemRole,
    nativeTools,
    toolDeclarations,
    toolRole,
    assistantToolCalls,
    toolCallArguments,
    toolCallFormats: grammar === undefined ? undefined : [grammar],
    reasoning,
    generationPrompt,
    notes,
    profile,
  };
}
