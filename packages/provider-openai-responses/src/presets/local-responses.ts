import { checkOptionKeys, optionKeys } from '@tiny/llm';
import {
  checkResponsesOptions,
  createOpenAIResponses,
  type OpenAIResponsesProvider,
} from '../create-openai-responses.js';
import type { OpenAIResponsesPresetOptions } from './preset-options.js';

/** The local servers that speak `/v1/responses`, and where they listen by default. */
const SERVERS = {
  vllm: 'http://127.0.0.1:8000/v1',
  ollama: 'http://127.0.0.1:11434/v1',
  lmstudio: 'http://127.0.0.1:1234/v1',
} as const;

/** Options of {@link localResponses}. */
export interface LocalResponsesOptions extends OpenAIResponsesPresetOptions {
  /** Which server's default address to use when `baseURL` is absent: `vllm` (the default), `ollama` or `lmstudio`. */
  readonly server?: keyof typeof SERVERS | undefined;
}

const LOCAL_KEYS = optionKeys<{ server?: string }>()(['server'], {});

/**
 * A local server speaking the Responses API: vLLM (`vllm serve openai/gpt-oss-20b`, at
 * `http://127.0.0.1:8000/v1`, the default), Ollama (`http://127.0.0.1:11434/v1`) or LM Studio
 * (`http://127.0.0.1:1234/v1`), without a key unless one is given. Stateless without encrypted
 * reasoning (`store: false`, no `include`); gpt-oss `reasoning_text` comes back as reasoning. The
 * provider id is the server's name.
 * @throws {InvalidInputError} for an unknown option key or a malformed `baseURL`.
 */
export function localResponses(options: LocalResponsesOptions = {}): OpenAIResponsesProvider {
  const { server, ...rest } = options;
  checkOptionKeys('localResponses()', { server }, LOCAL_KEYS);
  checkResponsesOptions('localResponses()', rest);
  const chosen = server ?? 'vllm';
  return createOpenAIResponses({
    name: chosen,
    ...rest,
    baseURL: rest.baseURL ?? SERVERS[chosen],
    providerOptions: { encryptedReasoning: false, ...rest.providerOptions },
  });
}
