import type { ToolSchema } from '@tiny/llm';
import { type AnyTool, ToolPolicy, type ToolRanker, ToolResult } from '@tiny/tools';
import {
  resolveSearchLimits,
  type SearchLimits,
  TOOL_CALL_NAME,
  TOOL_CALL_PARAMETERS,
  TOOL_SEARCH_NAME,
  toolCallSchema,
  toolSearchSchema,
} from './bridge-schemas.js';
import { compactToolSchema, jsonBytes, type SchemaCompaction } from './compact-schema.js';
import { createDeferredCatalogue, type DeferredCatalogue, type DeferredToolSpec } from './deferred-catalogue.js';
import { type RankMode, searchDeferredTools, type ToolSearchOutcome } from './search-deferred-tools.js';
import { unwrapBridgeCall } from './unwrap-bridge-call.js';

/** Discovery settings of a run. */
export interface DiscoveryOptions {
  /** Default true. When false: no bridge and no advertising, but deferred tools stay callable by name. */
  readonly enabled?: boolean | undefined;
  /** A host ranker; BM25 when absent. */
  readonly ranker?: ToolRanker | undefined;
  /** Default `ranker`. */
  readonly rankMode?: RankMode | undefined;
  /** Default 5. */
  readonly defaultLimit?: number | undefined;
  /** Default 20. */
  readonly maxLimit?: number | undefined;
  /** Manifest budget in tokens (4 bytes each); default 4,000. */
  readonly manifestTokenBudget?: number | undefined;
  /** Applied to every schema a request carries (direct, bridge, promoted); none by default. */
  readonly schemaCompaction?: SchemaCompaction | undefined;
}

/** Everything {@link createDiscoverySession} needs for one run. */
export interface DiscoverySessionInit extends DiscoveryOptions {
  /** The run's deferred tools, after the host allow-list (model-facing schemas). */
  readonly deferred: readonly DeferredToolSpec[];
  /** Names of every model-callable host tool: a host tool named `tool_search`/`tool_call` wins. */
  readonly hostToolNames?: Iterable<string> | undefined;
  /** Called after each search (for the `tool_searched` event), with the searching call's id. */
  readonly onSearch?: ((outcome: ToolSearchOutcome, callId: string) => void) | undefined;
}

/** The `tools_advertised` facts of a run's first request. */
export interface AdvertisedTools {
  /** Direct tool names, bridge excluded, in request order. */
  readonly direct: readonly string[];
  /** How many deferred tools the catalogue holds. */
  readonly deferred: number;
  /** UTF-8 size of the compact JSON of the schemas sent (direct + bridge). */
  readonly schemaBytes: number;
}

/**
 * Per-run discovery state: the deferred catalogue, the intrinsic bridge, and the tools found so
 * far (promoted into later requests' typed schemas, in the order they were found, so the request
 * prefix only grows).
 */
export interface DiscoverySession {
  /** The deferred tools as of the last {@link DiscoverySession.updateCatalogue} (or creation). */
  readonly catalogue: DeferredCatalogue;
  /**
   * Replaces the catalogue with the run's deferred tools as listed now (a toolset's definition
   * changed, a tool came or went): searches, the manifest and promoted tools' schemas use the new
   * definitions from the next request on, so the model is shown the definition a call would run
   * under. Promotions are kept; a promoted tool no longer in the catalogue is not sent until it is
   * back. The bridge itself (which names are offered) stays as it was.
   */
  updateCatalogue(deferred: readonly DeferredToolSpec[]): void;
  readonly limits: SearchLimits;
  /** Whether the intrinsic bridge is offered (enabled, ≥1 deferred tool, not fully shadowed). */
  readonly bridgeActive: boolean;
  /** The intrinsic bridge tools not shadowed by host tools: `tool_search`, then `tool_call`. */
  readonly bridgeNames: readonly string[];
  /** Bridge declarations as requests carry them. */
  bridgeSchemas(): readonly ToolSchema[];
  /**
   * The bridge as runnable tools (read-only, concurrency-safe). `tool_search` runs
   * {@link DiscoverySession.search}; `tool_call` should never run (unwrap it before admission)
   * and answers with an error if it does.
   */
  bridgeTools(): readonly AnyTool[];
  /** Runs a search, promotes its matches and reports it through `onSearch`. */
  search(args: unknown, callId?: string): Promise<ToolSearchOutcome>;
  /** Adds found tools to later requests; returns the names that were new. Unknown names are ignored. */
  promote(names: Iterable<string>): string[];
  /** Names promoted so far, in discovery order. */
  promoted(): readonly string[];
  /** Restores promotions on resume, keeping only tools still in the catalogue. */
  restorePromoted(names: Iterable<string>): string[];
  /** Whether `name` is a deferred tool of this run (callable by name or through `tool_call`). */
  isDeferred(name: string): boolean;
  /**
   * The tools of one request: `direct` as given (sort it by name), then the bridge, then the
   * promoted tools in discovery order, each projected through `schemaCompaction`. A promoted tool
   * also listed in `direct` is not repeated.
   */
  requestSchemas(direct: readonly ToolSchema[]): ToolSchema[];
  /** The `tools_advertised` facts for a first request carrying `direct`. */
  advertise(direct: readonly ToolSchema[]): AdvertisedTools;
  /** Whether `call` must be unwrapped (it names the intrinsic `tool_call`). */
  isBridgeCall(name: string): boolean;
}

/** Creates the discovery state of one run. */
export function createDiscoverySession(init: DiscoverySessionInit): DiscoverySession {
  let catalogue = createDeferredCatalogue(init.deferred);
  const limits = resolveSearchLimits({
    ...(init.defaultLimit === undefined ? {} : { defaultLimit: init.defaultLimit }),
    ...(init.maxLimit === undefined ? {} : { maxLimit: init.maxLimit }),
  });
  const hostNames = new Set(init.hostToolNames ?? []);
  const enabled = init.enabled !== false && catalogue.size > 0;
  const bridgeNames = enabled ? [TOOL_SEARCH_NAME, TOOL_CALL_NAME].filter((name) => !hostNames.has(name)) : [];
  const schemas: ToolSchema[] = [];
  const buildSchemas = () => {
    schemas.length = 0;
    if (bridgeNames.includes(TOOL_SEARCH_NAME)) {
      schemas.push(toolSearchSchema(catalogue, { limits, manifestTokenBudget: init.manifestTokenBudget }));
    }
    if (bridgeNames.includes(TOOL_CALL_NAME)) schemas.push(toolCallSchema());
  };
  buildSchemas();
  const promotedNames: string[] = [];
  const project = (schema: ToolSchema) =>
    init.schemaCompaction === undefined ? schema : compactToolSchema(schema, init.schemaCompaction);

  const session: DiscoverySession = {
    get catalogue() {
      return catalogue;
    },
    updateCatalogue(deferred) {
      catalogue = createDeferredCatalogue(deferred);
      buildSchemas();
    },
    limits,
    bridgeActive: bridgeNames.length > 0,
    bridgeNames,
    bridgeSchemas: () => [...schemas],
    bridgeTools: () => schemas.map((schema) => bridgeTool(schema, session)),
    async search(args, callId = '') {
      const outcome = await searchDeferredTools(catalogue, args, {
        ranker: init.ranker,
        rankMode: init.rankMode,
        limits,
      });
      session.promote(outcome.matched);
      init.onSearch?.(outcome, callId);
      return outcome;
    },
    promote(names) {
      const added: string[] = [];
      for (const name of names) {
        if (!catalogue.has(name) || promotedNames.includes(name)) continue;
        promotedNames.push(name);
        added.push(name);
      }
      return added;
    },
    promoted: () => [...promotedNames],
    restorePromoted: (names) => session.promote(names),
    isDeferred: (name) => catalogue.has(name),
    requestSchemas(direct) {
      const out = direct.map(project);
      const present = new Set(direct.map((schema) => schema.name));
      for (const schema of schemas) if (!present.has(schema.name)) out.push(project(schema));
      for (const name of promotedNames) {
        const schema = catalogue.schemaOf(name);
        if (schema !== undefined && !present.has(name)) out.push(project(schema));
      }
      return out;
    },
    advertise(direct) {
      const sent = [...direct.map(project), ...schemas.map(project)];
      return { direct: direct.map((schema) => schema.name), deferred: catalogue.size, schemaBytes: jsonBytes(sent) };
    },
    isBridgeCall: (name) => name === TOOL_CALL_NAME && bridgeNames.includes(TOOL_CALL_NAME),
  };
  return session;
}

function bridgeTool(schema: ToolSchema, session: DiscoverySession): AnyTool {
  const search = schema.name === TOOL_SEARCH_NAME;
  return {
    name: schema.name,
    description: schema.description ?? '',
    parameters: search ? schema.parameters : TOOL_CALL_PARAMETERS,
    policy: ToolPolicy.readOnly(),
    isConcurrencySafe: () => true,
    execute: async (args: unknown, context) => {
      if (search) return (await session.search(args, context.callId)).result;
      const unwrapped = unwrapBridgeCall({ name: TOOL_CALL_NAME, arguments: args });
      if (unwrapped.kind === 'invalid') return ToolResult.error(unwrapped.message);
      // Reached only when the loop did not unwrap the call before admission; nested calls still
      // go through admission, so policies see the real tool.
      if (unwrapped.kind === 'unwrapped' && context.callTool !== undefined) {
        return context.callTool(unwrapped.call.name, unwrapped.call.arguments);
      }
      return ToolResult.error('tool_call could not reach the named tool; call it directly by its name');
    },
  };
}
