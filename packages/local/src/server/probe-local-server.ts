import type { ModelProfile, SystemPromptPlacement } from '@tiny/llm';
import { asArray, asNonEmptyString, asNumber, asRecord, asString, readBodyText } from '@tiny/provider-utils';
import { InvalidInputError } from '@tiny/tools';
import { ChatTemplateError } from '../errors/chat-template-error.js';
import { LocalServerProbeError } from '../errors/local-server-probe-error.js';
import { type ChatTemplateReport, inspectChatTemplate } from '../template/inspect-chat-template.js';

/** The runtimes `probeLocalServer` recognises; `openai-compatible` is anything else. */
export type LocalServerKind = 'llamacpp' | 'ollama' | 'lmstudio' | 'vllm' | 'openai-compatible';

/** Options of {@link probeLocalServer}. */
export interface ProbeLocalServerOptions {
  /** The model id to ask about (Ollama needs it for `/api/show`; LM Studio and vLLM list several). */
  readonly model?: string | undefined;
  /** Aborts the probe; the signal's reason is thrown. */
  readonly signal?: AbortSignal | undefined;
  /** Bound on the whole probe, every endpoint and the chat template's rendering together. Default 5000 ms. */
  readonly timeoutMs?: number | undefined;
  /**
   * Bound on rendering the chat template the server exposes (see `inspectChatTemplate`); `timeoutMs`
   * and `signal` bound it too. Default 5000 ms.
   */
  readonly renderTimeoutMs?: number | undefined;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Headers on every probe request (an `Authorization` for LM Studio with API tokens on). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** What a local server said about itself and the model, and the profile decided from it. */
export interface LocalServerProbe {
  readonly server: LocalServerKind;
  /** The base URL probed, without a trailing slash. */
  readonly baseURL: string;
  /** The model the answers are about (the one asked for, else the one the server reports loaded). */
  readonly model: string | undefined;
  /** The context length the server runs the model with (else the model's own), in tokens. */
  readonly contextLength: number | undefined;
  /** The server calls tools natively for this model; `undefined` when it does not say. */
  readonly nativeTools: boolean | undefined;
  /** The model reasons (Ollama `thinking`, a template with reasoning); `undefined` when unknown. */
  readonly reasoning: boolean | undefined;
  /** The model takes images; `undefined` when unknown. */
  readonly vision: boolean | undefined;
  /** The model is loaded (LM Studio `state`); `undefined` when unknown. */
  readonly loaded: boolean | undefined;
  /** The inspection of the Jinja chat template the server exposes (llama.cpp `/props`). */
  readonly template: ChatTemplateReport | undefined;
  /**
   * The profile fields the probe decided (`toolCalling`, `systemPrompt`, `toolCallFormats`); a
   * field it could not decide is absent, so a preset's value stays.
   */
  readonly profile: Partial<ModelProfile>;
  /** Why each field was decided, and what could not be read. */
  readonly notes: readonly string[];
}

const MAX_PROBE_BYTES = 16 * 1024 * 1024;

interface Answer {
  readonly status: number | undefined;
  readonly json: unknown;
  /** Why there is no JSON: a connection failure, a status, or a body that is not JSON. */
  readonly failure: string | undefined;
  readonly connected: boolean;
}

/**
 * Asks a local server what it runs, the way each runtime exposes it: llama.cpp `GET /props`
 * (`chat_template`, `chat_template_caps`, `default_generation_settings.n_ctx`, `model_path`) and
 * `/v1/models`; Ollama `POST /api/show` (`capabilities`, `template`, `model_info` context length);
 * LM Studio `GET /api/v0/models` (`type`, `state`, `capabilities`, `max_context_length`); vLLM
 * `/v1/models` (`max_model_len`). The endpoints are asked together, read defensively (bounded
 * bodies, unknown shapes ignored), and the first runtime recognised wins in that order. A Jinja
 * template the server exposes is read with {@link inspectChatTemplate}, in a child process bounded in
 * time (`renderTimeoutMs`, and the probe's own `timeoutMs` and `signal`), heap and output; a
 * template that hits a bound is not used, and a note says why. A server that answers but
 * exposes none of these is `openai-compatible` with an empty profile and a note.
 *
 * @throws {InvalidInputError} when `baseURL` is not an absolute http(s) URL.
 * @throws {LocalServerProbeError} when no endpoint answered at all (`unreachable`) or `timeoutMs`
 *   passed (`timeout`).
 * @throws the signal's reason when `signal` aborts.
 */
export async function probeLocalServer(baseURL: string, options?: ProbeLocalServerOptions): Promise<LocalServerProbe> {
  const api = normaliseBaseURL(baseURL);
  const root = api.replace(/\/v1$/, '');
  const openai = api.endsWith('/v1') ? api : `${root}/v1`;
  const timeoutMs = options?.timeoutMs ?? 5000;
  if (!(timeoutMs > 0))
    throw new InvalidInputError({ entryPoint: 'probeLocalServer', reason: 'timeoutMs must be a positive number' });
  options?.signal?.throwIfAborted();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(options?.signal?.reason);
  options?.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('probe timed out'));
  }, timeoutMs);
  const fetcher = options?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const ask = async (url: string, body?: unknown): Promise<Answer> => {
    try {
      const response = await fetcher(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options?.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller.signal,
        redirect: 'manual',
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return { status: response.status, json: undefined, failure: `HTTP ${response.status}`, connected: true };
      }
      const text = await readBodyText(response, { maxResponseBytes: MAX_PROBE_BYTES });
      try {
        return { status: response.status, json: JSON.parse(text) as unknown, failure: undefined, connected: true };
      } catch {
        return { status: response.status, json: undefined, failure: 'not JSON', connected: true };
      }
    } catch (error) {
      return {
        status: undefined,
        json: undefined,
        failure: error instanceof Error ? error.message : String(error),
        connected: false,
      };
    }
  };
  try {
    const [props, lmstudio, models, show] = await Promise.all([
      ask(`${root}/props`),
      ask(`${root}/api/v0/models`),
      ask(`${openai}/models`),
      options?.model === undefined ? Promise.resolve(undefined) : ask(`${root}/api/show`, { model: options.model }),
    ]);
    options?.signal?.throwIfAborted();
    if (timedOut) throw new LocalServerProbeError({ baseURL: api, reason: 'timeout', detail: `${timeoutMs} ms` });
    const answers = [props, lmstudio, models, show].filter((answer) => answer !== undefined);
    if (!answers.some((answer) => answer.connected)) {
      throw new LocalServerProbeError({
        baseURL: api,
        reason: 'unreachable',
        detail: answers[0]?.failure ?? 'no answer',
      });
    }
    const model = options?.model;
    const bounds = { signal: controller.signal, renderTimeoutMs: options?.renderTimeoutMs };
    return (
      (await fromLlamaCpp(api, model, props.json, models.json, bounds)) ??
      fromOllama(api, model, show?.json) ??
      fromLmStudio(api, model, lmstudio.json) ??
      fromOpenAIModels(api, model, models.json)
    );
  } catch (error) {
    // The template's rendering ends with the combined signal's reason: say which bound it was.
    options?.signal?.throwIfAborted();
    if (timedOut && !LocalServerProbeError.isInstance(error))
      throw new LocalServerProbeError({ baseURL: api, reason: 'timeout', detail: `${timeoutMs} ms` });
    throw error;
  } finally {
    clearTimeout(timer);
    options?.signal?.removeEventListener('abort', onAbort);
  }
}

function normaliseBaseURL(baseURL: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseURL);
  } catch {
    throw new InvalidInputError({
      entryPoint: 'probeLocalServer',
      reason: `baseURL is not an absolute URL: ${JSON.stringify(baseURL)}`,
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidInputError({
      entryPoint: 'probeLocalServer',
      reason: `baseURL must be http(s), not ${parsed.protocol}`,
    });
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

function probe(
  server: LocalServerKind,
  baseURL: string,
  facts: Partial<Omit<LocalServerProbe, 'server' | 'baseURL' | 'profile' | 'notes'>>,
  profile: Partial<ModelProfile>,
  notes: string[],
): LocalServerProbe {
  return {
    server,
    baseURL,
    model: facts.model,
    contextLength: facts.contextLength,
    nativeTools: facts.nativeTools,
    reasoning: facts.reasoning,
    vision: facts.vision,
    loaded: facts.loaded,
    template: facts.template,
    profile,
    notes,
  };
}

interface RenderBounds {
  readonly signal: AbortSignal;
  readonly renderTimeoutMs: number | undefined;
}

/** The template inspection, or a note saying why there is none (a bound it hit among them). */
async function inspect(
  template: string | undefined,
  notes: string[],
  bounds: RenderBounds,
  tokens?: { readonly bosToken?: string | undefined; readonly eosToken?: string | undefined },
): Promise<ChatTemplateReport | undefined> {
  if (template === undefined) return undefined;
  try {
    const report = await inspectChatTemplate(template, { ...tokens, ...bounds });
    notes.push(...report.notes.map((note) => `chat template: ${note}`));
    return report;
  } catch (error) {
    if (!ChatTemplateError.isInstance(error)) throw error;
    notes.push(`chat template not inspected: ${error.message}`);
    return undefined;
  }
}

function decided(
  nativeTools: boolean | undefined,
  systemPrompt: SystemPromptPlacement | undefined,
  template: ChatTemplateReport | undefined,
): Partial<ModelProfile> {
  return {
    ...(nativeTools === undefined ? {} : { toolCalling: nativeTools, parallelToolCalls: nativeTools }),
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    ...(template?.toolCallFormats === undefined ? {} : { toolCallFormats: template.toolCallFormats }),
  };
}

async function fromLlamaCpp(
  baseURL: string,
  asked: string | undefined,
  json: unknown,
  modelsJson: unknown,
  bounds: RenderBounds,
): Promise<LocalServerProbe | undefined> {
  const props = asRecord(json);
  if (props === undefined) return undefined;
  const settings = asRecord(props.default_generation_settings);
  const caps = asRecord(props.chat_template_caps);
  const chatTemplate = asNonEmptyString(props.chat_template);
  if (settings === undefined && caps === undefined && chatTemplate === undefined) return undefined;
  const notes: string[] = ['llama.cpp: /props answered'];
  // Some llama.cpp versions list the model's own tokens beside the template.
  const template = await inspect(chatTemplate, notes, bounds, {
    bosToken: asString(props.bos_token),
    eosToken: asString(props.eos_token),
  });
  const listed = asRecord(asArray(asRecord(modelsJson)?.data)[0]);
  const modelPath = asNonEmptyString(props.model_path);
  const model = asked ?? asNonEmptyString(listed?.id) ?? modelPath?.split(/[\\/]/).pop();
  const contextLength = asNumber(settings?.n_ctx) ?? asNumber(asRecord(listed?.meta)?.n_ctx_train);
  const capsTools = caps?.supports_tools;
  const capsCalls = caps?.supports_tool_calls;
  let nativeTools: boolean | undefined;
  if (typeof capsTools === 'boolean' && typeof capsCalls === 'boolean') {
    nativeTools = capsTools && capsCalls;
    notes.push(
      `chat_template_caps: supports_tools ${capsTools}, supports_tool_calls ${capsCalls}: ${nativeTools ? 'native' : 'prompt-guided'} tools`,
    );
  } else if (template !== undefined) {
    nativeTools = template.nativeTools;
    notes.push(`no chat_template_caps: ${nativeTools ? 'native' : 'prompt-guided'} tools from the template`);
  } else notes.push('neither chat_template_caps nor a chat template: tool calling left to the preset');
  let systemPrompt = template?.systemPrompt;
  if (systemPrompt === undefined && caps?.supports_system_role === false) {
    systemPrompt = 'first_user';
    notes.push('chat_template_caps: supports_system_role false: systemPrompt first_user');
  }
  const vision = asRecord(props.modalities)?.vision;
  return probe(
    'llamacpp',
    baseURL,
    {
      model,
      contextLength,
      nativeTools,
      reasoning: template?.reasoning.supported,
      vision: typeof vision === 'boolean' ? vision : undefined,
      template,
    },
    decided(nativeTools, systemPrompt, template),
    notes,
  );
}

/** Ollama's templates are Go templates: a system message reaches the prompt only through `.System` or a `system` role branch. */
function goTemplateTakesSystem(template: string): boolean {
  return /\.System\b/.test(template) || /"system"/.test(template);
}

function fromOllama(baseURL: string, asked: string | undefined, json: unknown): LocalServerProbe | undefined {
  const show = asRecord(json);
  if (show === undefined) return undefined;
  const capabilities = Array.isArray(show.capabilities)
    ? asArray(show.capabilities).filter((c) => typeof c === 'string')
    : undefined;
  const info = asRecord(show.model_info);
  const template = typeof show.template === 'string' ? show.template : undefined;
  if (capabilities === undefined && info === undefined && template === undefined) return undefined;
  const notes: string[] = ['ollama: /api/show answered'];
  let nativeTools: boolean | undefined;
  if (capabilities !== undefined) {
    nativeTools = capabilities.includes('tools');
    notes.push(`capabilities [${capabilities.join(', ')}]: ${nativeTools ? 'native' : 'prompt-guided'} tools`);
  } else if (template !== undefined) {
    nativeTools = /\.Tools\b/.test(template);
    notes.push(`no capabilities listed: the template ${nativeTools ? 'reads' : 'does not read'} .Tools`);
  }
  let systemPrompt: SystemPromptPlacement | undefined;
  if (template !== undefined) {
    systemPrompt = goTemplateTakesSystem(template) ? 'system' : 'first_user';
    notes.push(
      systemPrompt === 'system'
        ? 'the template renders system text: systemPrompt system'
        : 'the template has no .System and no system role: systemPrompt first_user',
    );
  }
  const architecture = asNonEmptyString(info?.['general.architecture']);
  const trained =
    (architecture === undefined ? undefined : asNumber(info?.[`${architecture}.context_length`])) ??
    Object.entries(info ?? {}).find(
      ([key, value]) => key.endsWith('.context_length') && typeof value === 'number',
    )?.[1];
  const numCtx = /(?:^|\n)num_ctx\s+(\d+)/.exec(typeof show.parameters === 'string' ? show.parameters : '')?.[1];
  const contextLength = numCtx === undefined ? asNumber(trained) : Number(numCtx);
  if (numCtx !== undefined) notes.push(`num_ctx ${numCtx} set: the context the server runs with`);
  return probe(
    'ollama',
    baseURL,
    {
      model: asked,
      contextLength,
      nativeTools,
      reasoning: capabilities?.includes('thinking'),
      vision: capabilities?.includes('vision'),
    },
    decided(nativeTools, systemPrompt, undefined),
    notes,
  );
}

function fromLmStudio(baseURL: string, asked: string | undefined, json: unknown): LocalServerProbe | undefined {
  const list = asRecord(json);
  if (list === undefined || !Array.isArray(list.data)) return undefined;
  const entries = asArray(list.data).flatMap((entry) => {
    const record = asRecord(entry);
    return record !== undefined && (typeof record.state === 'string' || typeof record.max_context_length === 'number')
      ? [record]
      : [];
  });
  if (entries.length === 0) return undefined;
  const notes: string[] = ['lmstudio: /api/v0/models answered'];
  const chat = (entry: Record<string, unknown>): boolean => entry.type === 'llm' || entry.type === 'vlm';
  const entry =
    (asked === undefined ? undefined : entries.find((candidate) => candidate.id === asked)) ??
    (asked === undefined ? entries.find((candidate) => chat(candidate) && candidate.state === 'loaded') : undefined);
  if (entry === undefined) {
    notes.push(asked === undefined ? 'no loaded chat model listed' : `model ${asked} is not listed`);
    return probe('lmstudio', baseURL, { model: asked }, {}, notes);
  }
  let nativeTools: boolean | undefined;
  if (Array.isArray(entry.capabilities)) {
    nativeTools = entry.capabilities.includes('tool_use');
    notes.push(`capabilities [${entry.capabilities.join(', ')}]: ${nativeTools ? 'native' : 'prompt-guided'} tools`);
  } else notes.push('no capabilities listed: tool calling left to the preset');
  const loaded = typeof entry.state === 'string' ? entry.state === 'loaded' : undefined;
  return probe(
    'lmstudio',
    baseURL,
    {
      model: asNonEmptyString(entry.id),
      contextLength: asNumber(entry.loaded_context_length) ?? asNumber(entry.max_context_length),
      nativeTools,
      vision: entry.type === 'vlm' ? true : entry.type === 'llm' ? false : undefined,
      loaded,
    },
    decided(nativeTools, undefined, undefined),
    notes,
  );
}

function fromOpenAIModels(baseURL: string, asked: string | undefined, json: unknown): LocalServerProbe {
  const entries = asArray(asRecord(json)?.data).flatMap((entry) => {
    const record = asRecord(entry);
    return record === undefined ? [] : [record];
  });
  const entry = (asked === undefined ? undefined : entries.find((candidate) => candidate.id === asked)) ?? entries[0];
  const contextLength = asNumber(entry?.max_model_len);
  if (entry !== undefined && (contextLength !== undefined || entry.owned_by === 'vllm')) {
    return probe('vllm', baseURL, { model: asNonEmptyString(entry.id) ?? asked, contextLength }, {}, [
      'vllm: /v1/models answered',
      'vLLM does not say whether --enable-auto-tool-choice is on, nor serve its template: tool calling and placement left to the preset',
    ]);
  }
  return probe('openai-compatible', baseURL, { model: asNonEmptyString(entry?.id) ?? asked }, {}, [
    'no llama.cpp, Ollama, LM Studio or vLLM endpoint answered: OpenAI-compatible defaults',
  ]);
}
