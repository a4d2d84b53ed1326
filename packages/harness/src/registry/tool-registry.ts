import type { ToolFormat, ToolSchema } from '@tiny/llm';
import {
  type AnyTool,
  CallDeferredError,
  type CompleteTool,
  checkSchema,
  checkToolName,
  completeTool,
  describeToolNameProblem,
  InvalidInputError,
  modelFacingParameters,
  resolveSchema,
  stripHostAnnotations,
  ToolDefinitionError,
  type ToolExposure,
  ToolPolicy,
  type ToolSchemaInput,
} from '@tiny/tools';

/** A tool as the registry holds it: every member completed, plus its model-facing schema. */
export interface RegisteredTool {
  readonly name: string;
  readonly tool: CompleteTool<never>;
  /** Schema-only tool the harness never runs: calls to it are deferred to the host. */
  readonly external: boolean;
  /** What the model sees: injected arguments projected out. */
  readonly schema: ToolSchema;
}

/** Options for {@link ToolRegistry.register}. */
export interface RegisterToolOptions {
  /** How the tool is shown to the model; `json` by default. */
  readonly format?: ToolFormat | undefined;
}

/**
 * Checks a tool's format against its model-facing schema: a known `type`, and for `ptype` a list
 * of distinct declared parameters naming every required one (a parameter left out could never be
 * written, and a required one left out would make the tool uncallable in that format).
 */
function checkToolFormat(toolName: string, format: ToolFormat, parameters: unknown): void {
  const fail = (reason: string): never => {
    throw new ToolDefinitionError({ toolName, reason });
  };
  const type = (format as { type?: unknown } | null)?.type;
  if (type !== 'json' && type !== 'xml' && type !== 'ptype') {
    fail('`format.type` must be `json`, `xml` or `ptype`');
  }
  if (type !== 'ptype') return;
  const listed = (format as { parameters?: unknown }).parameters;
  if (!Array.isArray(listed) || listed.some((name) => typeof name !== 'string')) {
    fail('a `ptype` format needs `parameters`, the field names in positional order');
  }
  const names = listed as string[];
  const record = (typeof parameters === 'object' && parameters !== null ? parameters : {}) as {
    properties?: Record<string, unknown>;
    required?: unknown;
  };
  const properties = record.properties ?? {};
  const unknown = names.find((name) => !Object.hasOwn(properties, name));
  if (unknown !== undefined) fail(`\`ptype\` parameter "${unknown}" is not a property of the model-facing schema`);
  if (new Set(names).size !== names.length) fail('`ptype` parameters must not repeat a name');
  const required = Array.isArray(record.required) ? (record.required as unknown[]) : [];
  const missing = required.find((name) => typeof name === 'string' && !names.includes(name));
  if (missing !== undefined) fail(`required property "${String(missing)}" is missing from the \`ptype\` parameters`);
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The declaration of each tool registered without a format, per completed tool. */
const plainSchemas = new WeakMap<object, ToolSchema>();

/**
 * The tools a harness can run, by canonical name. Names follow the provider-safe rules of
 * `checkToolName` and must be unique: both are checked at registration, never silently replaced.
 * Schema lists are sorted by name so request prefixes stay stable for prompt caching.
 */
export class ToolRegistry {
  private readonly entries = new Map<string, RegisteredTool>();
  private sorted: { direct: ToolSchema[]; deferred: ToolSchema[] } | undefined;

  /**
   * Adds a tool.
   * @throws {ToolDefinitionError} for a bad or duplicate name, or a schema that does not compile.
   */
  register(tool: AnyTool, options: RegisterToolOptions = {}): this {
    if (
      typeof tool !== 'object' ||
      tool === null ||
      typeof tool.execute !== 'function' ||
      typeof tool.parameters !== 'object'
    ) {
      throw new InvalidInputError({
        entryPoint: 'ToolRegistry.register',
        reason: 'expected a tool with `name`, `parameters` and `execute`',
      });
    }
    this.assertNewName(tool.name);
    try {
      checkSchema(tool.parameters);
    } catch (error) {
      throw new ToolDefinitionError({
        toolName: tool.name,
        reason: 'its parameters schema does not compile',
        cause: error,
      });
    }
    const complete = completeTool(tool);
    const parameters = modelFacingParameters(tool);
    if (options.format !== undefined) checkToolFormat(tool.name, options.format, parameters);
    // One declaration per tool (as its completion and model-facing schema are): every harness built
    // with the tool shares it, and with it the prefix tracker's canonical form and hash of it.
    let schema = options.format === undefined ? plainSchemas.get(complete) : undefined;
    if (schema === undefined) {
      schema = {
        name: tool.name,
        description: tool.description,
        parameters,
        ...(options.format === undefined ? {} : { format: options.format }),
        ...(complete.outputSchema === undefined ? {} : { outputSchema: complete.outputSchema }),
      };
      if (options.format === undefined) plainSchemas.set(complete, schema);
    }
    this.entries.set(tool.name, { name: tool.name, tool: complete, external: false, schema });
    this.sorted = undefined;
    return this;
  }

  /**
   * Adds a schema-only tool the host executes elsewhere (an MCP server, a client app). The model
   * sees it like any tool; every call to it is deferred (`AgentRun.deferred.calls`). `parameters`
   * takes any schema kind (TypeBox, JSON Schema, a Standard Schema such as Zod ≥ 4.2).
   * @throws {ToolDefinitionError} for a bad or duplicate name, or a schema that does not compile.
   */
  registerExternal(
    declared: Omit<ToolSchema, 'parameters'> & { readonly parameters: ToolSchemaInput },
    options: { exposure?: ToolExposure; policy?: ToolPolicy } = {},
  ): this {
    if (
      typeof declared !== 'object' ||
      declared === null ||
      (typeof declared.parameters !== 'object' && typeof declared.parameters !== 'function') ||
      declared.parameters === null
    ) {
      throw new InvalidInputError({
        entryPoint: 'ToolRegistry.registerExternal',
        reason: 'expected a tool schema with `name` and `parameters`',
      });
    }
    this.assertNewName(declared.name);
    let resolved: ReturnType<typeof resolveSchema>;
    try {
      resolved = resolveSchema(declared.parameters);
      checkSchema(resolved.jsonSchema);
    } catch (error) {
      throw new ToolDefinitionError({
        toolName: declared.name,
        reason: `its parameters schema does not compile: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      });
    }
    const schema: ToolSchema = { ...declared, parameters: stripHostAnnotations(resolved.jsonSchema) };
    const tool: AnyTool = {
      name: schema.name,
      description: schema.description ?? '',
      parameters: resolved.jsonSchema,
      ...(resolved.standard === undefined ? {} : { standardSchemas: { parameters: resolved.standard } }),
      exposure: options.exposure ?? 'direct',
      policy: options.policy ?? ToolPolicy.unclassified(),
      execute: () => {
        throw new CallDeferredError({ reason: 'external' });
      },
    };
    this.entries.set(schema.name, { name: schema.name, tool: completeTool(tool), external: true, schema });
    this.sorted = undefined;
    return this;
  }

  /** The registered tool, or `undefined`. */
  get(name: string): RegisteredTool | undefined {
    return this.entries.get(name);
  }

  /** Whether a tool of this name is registered. */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every registered name, sorted. */
  names(): string[] {
    return [...this.entries.keys()].sort();
  }

  /** Model-facing schemas of `direct` tools, sorted by name. The same array until the next registration. */
  schemas(): readonly ToolSchema[] {
    return this.sortedSchemas().direct;
  }

  /** Model-facing schemas of `deferred` tools (reached through discovery), sorted by name. */
  deferredSchemas(): readonly ToolSchema[] {
    return this.sortedSchemas().deferred;
  }

  /** Declared schemas (injected arguments included) of every tool, for introspection; never send these to a model. */
  declaredSpecs(): ToolSchema[] {
    return [...this.entries.values()]
      .map((entry) => ({ ...entry.schema, parameters: entry.tool.parameters }))
      .sort(byName);
  }

  /** A snapshot of every tool's policy, by name. */
  policies(): ReadonlyMap<string, ToolPolicy> {
    return new Map([...this.entries.values()].map((entry) => [entry.name, entry.tool.policy]));
  }

  private sortedSchemas(): { direct: ToolSchema[]; deferred: ToolSchema[] } {
    if (this.sorted) return this.sorted;
    const direct: ToolSchema[] = [];
    const deferred: ToolSchema[] = [];
    for (const entry of [...this.entries.values()].sort(byName)) {
      if (entry.tool.exposure === 'direct') direct.push(entry.schema);
      else if (entry.tool.exposure === 'deferred') deferred.push(entry.schema);
    }
    this.sorted = { direct, deferred };
    return this.sorted;
  }

  private assertNewName(name: string): void {
    if (typeof name !== 'string')
      throw new InvalidInputError({ entryPoint: 'ToolRegistry', reason: 'a tool name must be a string' });
    const problem = checkToolName(name);
    if (problem) throw new ToolDefinitionError({ toolName: name, reason: describeToolNameProblem(problem) });
    if (this.entries.has(name)) {
      throw new ToolDefinitionError({ toolName: name, reason: 'a tool with this name is already registered' });
    }
  }
}
