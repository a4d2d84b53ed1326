import {
  type AnyTool,
  completeTool,
  type JsonSchema,
  modelFacingParameters,
  stripHostAnnotations,
  type ToolPolicy,
} from '@tiny/tools';

/** The behaviour hints an MCP client reads for a served tool (the MCP `ToolAnnotations`). */
export interface ServedToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One entry of `tools/list` as the server sends it. */
export interface ServedToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** The model-facing parameters: injected arguments and `x-tiny-*` annotations removed. */
  readonly inputSchema: { readonly type: 'object' } & Record<string, unknown>;
  /** The declared output schema, when it describes an object (MCP requires that). */
  readonly outputSchema?: { readonly type: 'object' } & Record<string, unknown>;
  readonly annotations?: ServedToolAnnotations;
}

/** A JSON value with object keys in sorted order, so a definition serialises the same way every time. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = canonical(item);
  }
  return out;
}

/**
 * The MCP annotations of a {@link ToolPolicy}. An unclassified policy gives none (MCP clients then
 * assume the worst: destructive, open world). A classified one gives `readOnlyHint` from
 * `sideEffects.readOnly`; `destructiveHint` from `sideEffects.destructive` (absent when read-only,
 * where MCP ignores it); `idempotentHint` from `runtime.idempotent`; `openWorldHint` true when the
 * tool reaches the network, an external service or a payment; `title` from `display.label`.
 */
export function annotationsFromPolicy(policy: ToolPolicy): ServedToolAnnotations | undefined {
  const title = policy.display.label?.trim() ? { title: policy.display.label.trim() } : {};
  if (!policy.classified) return Object.keys(title).length > 0 ? title : undefined;
  const effects = policy.sideEffects;
  return {
    ...title,
    readOnlyHint: effects.readOnly,
    ...(effects.readOnly ? {} : { destructiveHint: effects.destructive }),
    idempotentHint: effects.readOnly || policy.runtime.idempotent,
    openWorldHint: effects.network || effects.externalService || effects.payment,
  };
}

/** An object schema for MCP: a non-object root (or `true`) is refused by MCP clients. */
function objectSchema(schema: JsonSchema): ({ type: 'object' } & Record<string, unknown>) | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const record = canonical(stripHostAnnotations(schema)) as Record<string, unknown>;
  return record.type === 'object' ? (record as { type: 'object' } & Record<string, unknown>) : undefined;
}

/** Whether a tool is listed over MCP: host-only (`exposure: 'hidden'`) tools are not. */
export function isServed(tool: AnyTool): boolean {
  return completeTool(tool).exposure !== 'hidden';
}

/**
 * The `tools/list` entry of a tool: its model-facing schema (what `modelFacingParameters` gives the
 * model: injected parameters removed, `x-tiny-*` stripped), its description, its object
 * `outputSchema` when declared, and annotations from its policy. Keys are sorted, so the same tool
 * gives byte-identical JSON in every process (clients that pin definitions see no change).
 */
export function servedDefinition(tool: AnyTool): ServedToolDefinition {
  const complete = completeTool(tool);
  const parameters = objectSchema(modelFacingParameters(complete)) ?? { type: 'object' as const, properties: {} };
  const output = complete.outputSchema === undefined ? undefined : objectSchema(complete.outputSchema);
  const annotations = annotationsFromPolicy(complete.policy);
  return {
    name: complete.name,
    ...(annotations?.title === undefined ? {} : { title: annotations.title }),
    description: complete.description,
    inputSchema: parameters,
    ...(output === undefined ? {} : { outputSchema: output }),
    ...(annotations === undefined ? {} : { annotations }),
  };
}
