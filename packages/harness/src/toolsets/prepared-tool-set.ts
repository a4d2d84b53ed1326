import {
  type AnyTool,
  checkSchema,
  resolveSchema,
  ToolDefinitionError,
  type ToolResult,
  type ToolSchemaInput,
} from '@tiny/tools';
import {
  listToolSet,
  type ToolExposureExplanation,
  type ToolSet,
  type ToolSetCallContext,
  type ToolSetContext,
  type ToolSetListing,
} from './tool-set.js';
import { wrapTool } from './wrap-tool.js';
import { WrappingToolSet } from './wrapping-tool-set.js';

/** A tool's declaration as a {@link PreparedToolSet} callback sees and returns it. */
export interface ToolDeclaration {
  readonly name: string;
  readonly description: string;
  /**
   * The declared schema (injected arguments included); admission validates against it. A callback
   * may return any schema kind (TypeBox, JSON Schema, a Standard Schema such as Zod); a Standard
   * Schema's own `validate` then runs after ajv instead of the original tool's.
   */
  readonly parameters: ToolSchemaInput;
}

/** Rewrites or drops this turn's declarations; may not add or rename tools. */
export type PrepareTools = (
  context: ToolSetContext,
  declarations: readonly ToolDeclaration[],
) => readonly ToolDeclaration[] | Promise<readonly ToolDeclaration[]>;

/**
 * Another toolset with a per-turn transform of its declarations: the callback may rewrite a
 * tool's description or parameters (reported as `prepared`) or drop it (`filtered_out`, and calls
 * to it throw `ToolNotFoundError`). Everything else about each tool is delegated unchanged.
 *
 * @throws {ToolDefinitionError} from `tools` when the callback returns a name the inner set did not
 * list (use a `RenamedToolSet` to rename) or the same name twice.
 */
export class PreparedToolSet extends WrappingToolSet {
  readonly label: string;

  constructor(
    inner: ToolSet,
    readonly prepare: PrepareTools,
    options: { label?: string } = {},
  ) {
    super(inner);
    this.label = options.label ?? 'prepared';
  }

  /** The inner set's tools after this turn's callback rewrote or dropped their declarations. */
  async tools(context: ToolSetContext): Promise<ToolSetListing> {
    const listing = await listToolSet(this.inner, context);
    const declarations = listing.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    }));
    const prepared = await this.prepare(context, declarations);
    const byName = new Map<string, AnyTool>(listing.tools.map((tool) => [tool.name, tool]));
    const seen = new Set<string>();
    const explanations: ToolExposureExplanation[] = [...listing.explanations];
    const tools: AnyTool[] = [];
    for (const declaration of prepared) {
      const tool = byName.get(declaration.name);
      if (tool === undefined || seen.has(declaration.name)) {
        throw new ToolDefinitionError({
          toolName: declaration.name,
          reason:
            tool === undefined
              ? 'a prepare callback returned a tool its inner toolset does not list (use RenamedToolSet to rename)'
              : 'a prepare callback returned this tool twice',
        });
      }
      seen.add(declaration.name);
      const changed = declaration.description !== tool.description || declaration.parameters !== tool.parameters;
      if (!changed) {
        tools.push(tool);
        continue;
      }
      explanations.push({ name: tool.name, kind: 'prepared', by: this.label });
      let resolved: ReturnType<typeof resolveSchema>;
      try {
        resolved = resolveSchema(declaration.parameters);
        checkSchema(resolved.jsonSchema);
      } catch (error) {
        throw new ToolDefinitionError({
          toolName: tool.name,
          reason: `a prepare callback returned a schema that does not compile: ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      tools.push(
        wrapTool(tool, {
          description: declaration.description,
          parameters: resolved.jsonSchema,
          ...(resolved.standard === undefined
            ? {}
            : { standardSchemas: { ...tool.standardSchemas, parameters: resolved.standard } }),
        }),
      );
    }
    for (const tool of listing.tools) {
      if (!seen.has(tool.name)) explanations.push({ name: tool.name, kind: 'filtered_out', by: this.label });
    }
    return { tools, explanations };
  }

  /**
   * Delegates a call to a tool the callback kept this turn.
   * @throws {ToolNotFoundError} when the callback dropped the tool.
   */
  async call(name: string, args: unknown, context: ToolSetCallContext): Promise<ToolResult> {
    return this.callListed(name, args, context);
  }
}
