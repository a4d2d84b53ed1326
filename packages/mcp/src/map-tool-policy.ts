import { sanitizeToolMetadata, ToolPolicy } from '@tiny/tools';

/** The behaviour hints an MCP server attaches to a tool (all optional, all untrusted). */
export interface McpToolAnnotations {
  readonly title?: string | undefined;
  readonly readOnlyHint?: boolean | undefined;
  readonly destructiveHint?: boolean | undefined;
  readonly idempotentHint?: boolean | undefined;
  readonly openWorldHint?: boolean | undefined;
}

/**
 * Maps MCP tool annotations onto a {@link ToolPolicy}, with the MCP defaults for absent hints
 * (`destructiveHint` true, `idempotentHint` false, `openWorldHint` true):
 * - no annotations → unclassified (policy middleware in strict mode refuses it);
 * - `readOnlyHint: true` → `ToolPolicy.readOnly()`;
 * - otherwise classified with `destructive` = `destructiveHint`, runtime `idempotent` = `idempotentHint`;
 * - `openWorldHint` → `network` and `externalService` side effects;
 * - `title` → the display label (sanitised).
 * Hints are the server's claims: use `ApprovalRequiredToolSet` or policy middleware to be stricter.
 */
export function policyFromAnnotations(annotations: McpToolAnnotations | undefined): ToolPolicy {
  if (annotations === undefined) return ToolPolicy.unclassified();
  let policy =
    annotations.readOnlyHint === true
      ? ToolPolicy.readOnly()
      : ToolPolicy.classified()
          .withSideEffects({ destructive: annotations.destructiveHint ?? true })
          .withRuntime({ idempotent: annotations.idempotentHint ?? false });
  if (annotations.openWorldHint ?? true) policy = policy.withSideEffects({ network: true, externalService: true });
  const title =
    annotations.title === undefined ? '' : sanitizeToolMetadata(annotations.title, { maxBytes: 200 }).trim();
  return title === '' ? policy : policy.withDisplay({ label: title });
}
