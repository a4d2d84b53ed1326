import type { ToolSchema } from '@tiny/llm';
import type { JsonSchema } from '@tiny/tools';
import type { DeferredCatalogue } from './deferred-catalogue.js';
import { DEFAULT_MANIFEST_TOKEN_BUDGET, renderSearchManifest } from './search-manifest.js';

/** Name of the intrinsic search tool. */
export const TOOL_SEARCH_NAME = 'tool_search';
/** Name of the intrinsic call-by-name tool. */
export const TOOL_CALL_NAME = 'tool_call';

/** Result-count limits of `tool_search`. */
export interface SearchLimits {
  /** Used when the model sends no `limit`; within `1..maxLimit`. */
  readonly defaultLimit: number;
  /** At least 1. */
  readonly maxLimit: number;
}

/**
 * Resolves `tool_search` limits: `maxLimit` = max(maxLimit, 1) (default 20), `defaultLimit`
 * clamped to `1..maxLimit` (default 5). Non-finite or fractional inputs are floored or defaulted;
 * never throws.
 */
export function resolveSearchLimits(options: { defaultLimit?: number; maxLimit?: number } = {}): SearchLimits {
  const whole = (value: number | undefined, fallback: number) =>
    value === undefined || !Number.isFinite(value) ? fallback : Math.floor(value);
  const maxLimit = Math.max(whole(options.maxLimit, 20), 1);
  const defaultLimit = Math.min(Math.max(whole(options.defaultLimit, 5), 1), maxLimit);
  return { defaultLimit, maxLimit };
}

/** The fixed usage text at the start of `tool_search`'s description. */
export const TOOL_SEARCH_USAGE =
  'Find tools that are not listed yet. Describe the task in a few words; matches come back with ' +
  'their full parameter schemas. Then call a match by its name, or through `tool_call`.';

/** Options for {@link toolSearchSchema}. */
export interface ToolSearchSchemaOptions {
  readonly limits?: SearchLimits | undefined;
  /** Manifest budget in tokens (4 bytes each); default {@link DEFAULT_MANIFEST_TOKEN_BUDGET}. */
  readonly manifestTokenBudget?: number | undefined;
}

/**
 * The model-facing declaration of `tool_search {query, limit}`: the usage text, then the catalogue
 * manifest within the token budget. `limit` advertises `minimum: 1` and `maximum: maxLimit`.
 */
export function toolSearchSchema(catalogue: DeferredCatalogue, options: ToolSearchSchemaOptions = {}): ToolSchema {
  const limits = options.limits ?? resolveSearchLimits();
  const budget = (options.manifestTokenBudget ?? DEFAULT_MANIFEST_TOKEN_BUDGET) * 4;
  const manifest = renderSearchManifest(catalogue.entries, budget);
  return {
    name: TOOL_SEARCH_NAME,
    description: manifest.length === 0 ? TOOL_SEARCH_USAGE : `${TOOL_SEARCH_USAGE}\n\n${manifest}`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you want to do, in a few words.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: limits.maxLimit,
          description: `How many matches to return (default ${limits.defaultLimit}).`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
  };
}

/**
 * The model-facing declaration of `tool_call {name, arguments}`. `arguments` is advertised as a
 * JSON **string** (constrained decoders and strict projections turn a free-form object into `{}`);
 * objects are accepted too (see {@link TOOL_CALL_PARAMETERS}).
 */
export function toolCallSchema(): ToolSchema {
  return {
    name: TOOL_CALL_NAME,
    description:
      'Call a tool found with `tool_search` by its name. Pass its arguments as a JSON object ' +
      'encoded in a string, for example "{\\"path\\": \\"notes.txt\\"}".',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'The exact name of the tool to call.' },
        arguments: { type: 'string', description: 'The arguments as a JSON object in a string; "{}" for none.' },
      },
      required: ['name'],
      additionalProperties: false,
    },
  };
}

/** The declared (validation) schema of `tool_call`: `arguments` may be a string, an object or null. */
export const TOOL_CALL_PARAMETERS: JsonSchema = Object.freeze({
  type: 'object',
  properties: { name: { type: 'string' }, arguments: { type: ['string', 'object', 'null'] } },
  required: ['name'],
});
