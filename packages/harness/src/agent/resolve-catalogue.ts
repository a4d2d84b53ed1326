import type { ToolSchema } from '@tiny/llm';
import { type AnyTool, completeTool, modelFacingParameters } from '@tiny/tools';
import { deferredToolSpec } from '../discovery/deferred-catalogue.js';
import { createDiscoverySession } from '../discovery/discovery-session.js';
import { filterOfferedTools, middlewareContext } from '../middleware/middleware-runner.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import { allowedToolNames } from '../run/run-context.js';
import { listToolSet, toolSetEmitter } from '../toolsets/tool-set.js';
import { toolsFilteredDetails } from '../toolsets/tools-filtered-details.js';
import type { LoopState } from './loop-state.js';

const entries = new WeakMap<object, RegisteredTool>();

/** A toolset's (or the bridge's) tool as a registry-style entry, cached per tool object. */
function entryOf(tool: AnyTool): RegisteredTool {
  let entry = entries.get(tool);
  if (entry === undefined) {
    const schema: ToolSchema = {
      name: tool.name,
      description: tool.description,
      parameters: modelFacingParameters(tool),
      ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    };
    entry = { name: tool.name, tool: completeTool(tool), external: false, schema };
    entries.set(tool, entry);
  }
  return entry;
}

/** Whether two catalogues hold the same entry objects under the same names (a changed tool is a new object). */
function sameEntries(a: ReadonlyMap<string, RegisteredTool>, b: ReadonlyMap<string, RegisteredTool>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, entry] of a) if (b.get(name) !== entry) return false;
  return true;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Whether the offered catalogue needs no resolving: an unchanged registry, and no toolsets,
 * filtering middleware or active discovery bridge. Synchronous, so the loop awaits
 * {@link resolveCatalogue} (a promise and a microtask per turn) only when there is work.
 * @internal
 */
export function catalogueCurrent(state: LoopState): boolean {
  if (state.registry.schemas() !== state.offeredFrom) return false;
  if (state.toolSets.length > 0 || state.discovery?.bridgeActive === true) return false;
  for (const middleware of state.middleware) if (middleware.filterTools !== undefined) return false;
  return true;
}

/**
 * Resolves this turn's catalogue: the registry's tools, then each toolset's (the first owner of a
 * name wins), minus what the host allow-list denies; `direct` tools are offered, `deferred` ones go
 * into the run's discovery catalogue (callable by name, found through `tool_search`; refreshed
 * whenever the deferred tools change, so promoted schemas follow their definitions), `hidden` ones
 * are never offered. Middleware `filterTools` then narrows the offered set, and the discovery
 * bridge is added when there are deferred tools. Without toolsets, filtering middleware or
 * deferred tools, an unchanged registry costs nothing.
 * @internal
 */
export async function resolveCatalogue(state: LoopState): Promise<void> {
  if (catalogueCurrent(state)) return;
  const direct = state.registry.schemas();
  const filters = state.middleware.some((middleware) => middleware.filterTools !== undefined);
  state.offeredFrom = direct;
  const allowed = allowedToolNames(state.context);
  const permitted = (name: string) => allowed === undefined || allowed.has(name);
  const offered: RegisteredTool[] = [];
  const deferred = new Map<string, RegisteredTool>();
  const taken = new Set(state.registry.names());
  for (const schema of direct)
    if (permitted(schema.name)) offered.push(state.registry.get(schema.name) as RegisteredTool);
  for (const schema of state.registry.deferredSchemas()) {
    if (permitted(schema.name)) deferred.set(schema.name, state.registry.get(schema.name) as RegisteredTool);
  }
  for (const toolSet of state.toolSets) {
    const listing = await listToolSet(toolSet, {
      runId: state.runId,
      turn: state.turn,
      run: state.context,
      ...(state.sink.active ? { emit: toolSetEmitter(state) } : {}),
    });
    if (state.sink.active) {
      for (const detail of toolsFilteredDetails(listing)) {
        state.sink.emit({ type: 'tools_filtered', ...detail });
      }
    }
    for (const tool of listing.tools) {
      if (taken.has(tool.name) || !permitted(tool.name)) continue;
      taken.add(tool.name);
      const exposure = tool.exposure ?? 'direct';
      if (exposure === 'direct') offered.push(entryOf(tool));
      else if (exposure === 'deferred') deferred.set(tool.name, entryOf(tool));
    }
  }
  offered.sort(byName);
  let kept: readonly RegisteredTool[] = offered;
  if (filters) kept = await filterOfferedTools(state, offered, middlewareContext(state, state.turn));
  if (state.discovery !== undefined && !sameEntries(state.deferredTools, deferred)) {
    // A deferred tool's definition changed (a toolset re-listed it), or tools came or went: the
    // model must be shown, searched and promoted, what a call would run under now.
    state.discovery.updateCatalogue([...deferred.values()].map((entry) => deferredToolSpec(entry.tool)));
  }
  if (state.discovery === undefined && deferred.size > 0 && state.discoveryOptions.enabled !== false) {
    const { sink, policy } = state;
    state.discovery = createDiscoverySession({
      ...state.discoveryOptions,
      deferred: [...deferred.values()].map((entry) => deferredToolSpec(entry.tool)),
      hostToolNames: [...taken],
      onSearch: (outcome, callId) => {
        if (!sink.active) return;
        sink.emit({
          type: 'tool_searched',
          callId,
          query: policy.captureToolIo ? outcome.query : '',
          matched: outcome.matched,
          ranker: outcome.ranker,
          topConfidence: outcome.topConfidence,
          fallback: outcome.fallback,
          shadowMatched: outcome.shadowMatched,
          latencyMs: outcome.latencyMs,
        });
      },
    });
  }
  const bridge = state.discovery?.bridgeActive ? state.discovery.bridgeTools().map(entryOf) : [];
  const callable = [...kept, ...bridge];
  state.offered = new Map(callable.map((entry) => [entry.name, entry]));
  state.deferredTools = deferred;
  const keptSchemas =
    kept.length === direct.length && state.toolSets.length === 0 ? direct : kept.map((entry) => entry.schema);
  if (state.discovery !== undefined && state.discovery.promoted().length === 0) {
    const restored = state.prefix.takePromoted();
    if (restored.length > 0) state.discovery.restorePromoted(restored);
  }
  // Stable order: tools offered before keep their places, new ones (toolset changes, promotions) are
  // appended. Provisional: the loop orders the tools as sent (middleware may add its own) for good.
  state.offeredSchemas = state.prefix.order(
    state.discovery ? state.discovery.requestSchemas(keptSchemas) : keptSchemas,
    false,
  );
}
