import type { ToolSchema } from '@tiny/llm';
import { type AnyTool, completeTool, type JsonSchema, modelFacingParameters, type RankCandidate } from '@tiny/tools';

/** A deferred tool as discovery indexes it. */
export interface DeferredToolSpec {
  readonly name: string;
  readonly description: string;
  /** The model-facing schema (injected arguments projected out). */
  readonly parameters: JsonSchema;
  /** Group name (an MCP server) given to rankers. */
  readonly family?: string | undefined;
}

/** One catalogue entry: the spec plus the text rankers search. */
export interface DeferredCatalogueEntry extends DeferredToolSpec {
  /** name, name with `_` → space, description, top-level property names. */
  readonly searchText: string;
}

/**
 * The per-run catalogue of deferred tools: built when the run first has deferred tools (after the
 * host allow-list) and rebuilt only when they change, sorted by name so the manifest and the
 * request prefix stay byte-stable for prompt caching.
 */
export interface DeferredCatalogue {
  /** Entries sorted by name (code-unit order). */
  readonly entries: readonly DeferredCatalogueEntry[];
  readonly size: number;
  /** The entry of a deferred tool, or `undefined` when no deferred tool has that name. */
  get(name: string): DeferredCatalogueEntry | undefined;
  /** Whether a deferred tool of this name is in the catalogue. */
  has(name: string): boolean;
  /** Ranker candidates (`key` = name, `summary` = search text, `family`), in entry order. */
  readonly candidates: readonly RankCandidate[];
  /** The entry's model-facing schema, as a request carries it. */
  schemaOf(name: string): ToolSchema | undefined;
}

/** Reads a tool's deferred spec, projecting its injected arguments out of the schema. */
export function deferredToolSpec(tool: AnyTool): DeferredToolSpec {
  const complete = completeTool(tool);
  return {
    name: complete.name,
    description: complete.description,
    parameters: modelFacingParameters(complete),
    ...(complete.family === undefined ? {} : { family: complete.family }),
  };
}

/**
 * Builds the catalogue. A later spec with the name of an earlier one is ignored (the first wins,
 * as with toolset routing).
 */
export function createDeferredCatalogue(specs: readonly DeferredToolSpec[]): DeferredCatalogue {
  const byName = new Map<string, DeferredCatalogueEntry>();
  for (const spec of specs) {
    if (byName.has(spec.name)) continue;
    byName.set(spec.name, { ...spec, searchText: searchTextOf(spec) });
  }
  const entries = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const candidates: RankCandidate[] = entries.map((entry) => ({
    key: entry.name,
    summary: entry.searchText,
    ...(entry.family === undefined ? {} : { family: entry.family }),
  }));
  return {
    entries,
    size: entries.length,
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    candidates,
    schemaOf: (name) => {
      const entry = byName.get(name);
      return entry === undefined
        ? undefined
        : { name: entry.name, description: entry.description, parameters: entry.parameters };
    },
  };
}

function searchTextOf(spec: DeferredToolSpec): string {
  const properties = spec.parameters.properties;
  const names =
    typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
  return [spec.name, spec.name.replace(/_/g, ' '), spec.description, ...names].join(' ');
}
