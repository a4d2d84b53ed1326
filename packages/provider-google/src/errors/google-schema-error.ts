import { TinyError } from '@tiny/llm';

const marker = Symbol.for('tiny.error.GoogleSchemaError');

/**
 * A tool's parameters or a response schema use a JSON Schema keyword Gemini's OpenAPI schema
 * subset cannot express (in `schemaMode: 'openapi'`): the request is never sent with a schema
 * weaker than the one the tool validates against.
 */
export class GoogleSchemaError extends TinyError {
  readonly [marker] = true;
  /** The keyword that cannot be expressed (`patternProperties`, `$ref`, `not`, ...). */
  readonly keyword: string;
  /** Where it stands, as a JSON pointer from the schema root (`/properties/tags`). */
  readonly path: string;
  /** The tool whose parameters hold it, or `responseFormat`. */
  readonly owner: string;

  constructor(options: { keyword: string; path: string; owner: string; cause?: unknown }) {
    super(
      'GoogleSchemaError',
      `${options.owner}: the JSON Schema keyword "${options.keyword}" at ${options.path === '' ? '/' : options.path} cannot be expressed in Gemini's OpenAPI schema subset (use schemaMode 'json-schema', which sends parametersJsonSchema)`,
      options,
    );
    this.keyword = options.keyword;
    this.path = options.path;
    this.owner = options.owner;
  }

  static override isInstance(value: unknown): value is GoogleSchemaError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
