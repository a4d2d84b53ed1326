import { TinyError } from '@tiny/llm';

const marker = Symbol.for('tiny.error.MissingApiKeyError');

/**
 * A preset for a hosted API (`openai()`) was created without an API key: none was passed as
 * `apiKey` and the environment variable it reads (`OPENAI_API_KEY`) is unset or empty. Thrown when
 * the provider is created, so a missing key never surfaces later as a 401 from the first request.
 * `provider` names the preset and `envVar` the variable it read.
 */
export class MissingApiKeyError extends TinyError {
  readonly [marker] = true;
  readonly provider: string;
  readonly envVar: string;

  constructor(options: { provider: string; envVar: string }) {
    super(
      'MissingApiKeyError',
      `${options.provider}(): no API key: pass { apiKey } or set ${options.envVar}` +
        ' (for a local OpenAI-compatible server without a key, use createOpenAICompatible({ baseURL }) or a local preset such as ollama())',
      {},
    );
    this.provider = options.provider;
    this.envVar = options.envVar;
  }

  static override isInstance(value: unknown): value is MissingApiKeyError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
