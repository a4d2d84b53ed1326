import { InvalidInputError, isMarked } from '@tiny/tools';

const marker = Symbol.for('tiny.error.UnwrappedAiSdkModelError');

/**
 * An AI SDK language model (`LanguageModelV2`, `V3` or `V4`: `specificationVersion` `"v2"`...)
 * was passed where a tiny `LanguageModelV1` is expected. The message says how to fix it: wrap the
 * model with `fromAiSdk(model)` from `@tiny/provider-ai-sdk`. An `InvalidInputError`, so code that
 * catches those catches this one too.
 */
export class UnwrappedAiSdkModelError extends InvalidInputError {
  readonly [marker] = true;
  /** The `specificationVersion` the model declared, such as `"v2"`. */
  readonly specificationVersion: string;

  constructor(options: { entryPoint: string; specificationVersion: string }) {
    super({
      entryPoint: options.entryPoint,
      reason:
        `\`model\` is an AI SDK model (specificationVersion "${options.specificationVersion}"); ` +
        'wrap it with `fromAiSdk(model)` from `@tiny/provider-ai-sdk` (tiny takes a LanguageModelV1, specificationVersion "v1")',
    });
    this.name = 'UnwrappedAiSdkModelError';
    this.specificationVersion = options.specificationVersion;
  }

  static override isInstance(value: unknown): value is UnwrappedAiSdkModelError {
    return isMarked(value, marker);
  }
}
