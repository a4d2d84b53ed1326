import type { TSchema } from 'typebox';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { checkOptionKeys, type OptionKeys, optionKeys } from '../options/option-keys.js';
import type { ToolResult } from '../result/tool-result.js';
import { type ResolvedSchema, resolveSchema, type SchemaSide } from '../schema/resolve-schema.js';
import type { InferSchemaInput, InferSchemaOutput, StandardSchemaInput } from '../schema/schema-input.js';
import { checkSchema, SchemaCompileFailure, type UnknownFormats } from '../validation/create-validator.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { projectInjectedArguments } from './injected-arguments.js';
import { stripHostAnnotations } from './strip-host-annotations.js';
import type { Tool, ToolOutput } from './tool.js';
import type { ToolExecutionContext } from './tool-execution-context.js';
import { checkToolName, describeToolNameProblem } from './tool-name.js';

/** What a schema slot of {@link defineTool} takes: TypeBox, raw JSON Schema, or a Standard Schema with JSON Schema. */
export type ToolSchemaInput = TSchema | JsonSchema | StandardSchemaInput;

/**
 * The arguments `execute` receives for a parameters schema: the Standard Schema's output type
 * (`StandardSchemaV1.InferOutput`: transforms and defaults applied), the TypeBox static type, or
 * `Record<string, unknown>` for a raw JSON Schema whose type TypeScript cannot know.
 */
export type InferToolArguments<TParams> =
  InferSchemaOutput<TParams, Record<string, unknown>> extends infer TArgs
    ? unknown extends TArgs
      ? Record<string, unknown>
      : TArgs extends Record<string, unknown>
        ? TArgs
        : Record<string, unknown>
    : never;

/**
 * What `execute` may return for an output schema: without one, any {@link ToolOutput}; with one,
 * a value of the schema's input type (`StandardSchemaV1.InferInput`, the TypeBox static type; any
 * JSON value for a raw JSON Schema) or a {@link ToolResult} (checked by its JSON content).
 */
export type ToolReturn<TOutput> = [TOutput] extends [undefined]
  ? ToolOutput
  : InferSchemaInput<TOutput, ToolOutput> | ToolResult;

/** Compile-time marker: `parameters` must describe an object. */
export interface ParametersMustBeAnObjectSchema {
  readonly "a tool's parameters schema must have an object at its root": never;
}

/**
 * `unknown` when `TParams` can describe an object, else {@link ParametersMustBeAnObjectSchema}:
 * a TypeBox or literal JSON Schema whose `type` is not `'object'`, or a Standard Schema whose
 * input type is not an object, fails to compile. (A schema typed only as `JsonSchema` is checked at run time.)
 */
export type CheckObjectRoot<TParams> = TParams extends { readonly '~standard': unknown }
  ? InferSchemaInput<TParams> extends Record<string, unknown>
    ? unknown
    : ParametersMustBeAnObjectSchema
  : TParams extends { readonly type: infer TKind }
    ? string extends TKind
      ? unknown
      : [TKind] extends ['object']
        ? unknown
        : ParametersMustBeAnObjectSchema
    : unknown;

/**
 * What {@link defineTool} takes: a {@link Tool} whose `parameters` (and optional `outputSchema`)
 * is a TypeBox schema, a raw JSON Schema object or a Standard Schema with a JSON Schema side.
 */
export type ToolDefinition<
  TParams extends ToolSchemaInput,
  TOutput extends ToolSchemaInput | undefined = undefined,
> = Omit<Tool<InferToolArguments<TParams>>, 'parameters' | 'outputSchema' | 'standardSchemas' | 'execute'> & {
  readonly parameters: TParams;
  /**
   * What a `format` tiny does not enforce in `parameters` or `outputSchema` gets: `'refuse'` (the
   * default: `defineTool` throws) or `'annotate'` (accepted as an annotation that is NOT checked;
   * see {@link UnknownFormats}). The choice sticks to the schema objects, so every call's
   * validation follows it. Not a member of the returned tool.
   */
  readonly unknownFormats?: UnknownFormats | undefined;
  /** The schema of the tool's structured result; any kind a schema slot takes. */
  readonly outputSchema?: TOutput;
  /**
   * Runs the call with the arguments typed by `parameters` (after validation and injection); with
   * an `outputSchema`, what it returns must match that schema.
   */
  execute(
    args: InferToolArguments<TParams>,
    context: ToolExecutionContext,
  ): ToolReturn<TOutput> | Promise<ToolReturn<TOutput>>;
};

const modelSchemas = new WeakMap<object, JsonSchema>();

/**
 * Every member a {@link Tool} may have, and what other libraries call some of them; any other key
 * in a definition is a mistake. `optionKeys` fails to compile when `Tool` gains a member that is
 * not listed.
 */
const TOOL_KEYS = optionKeys<Tool>()(
  [
    'name',
    'description',
    'parameters',
    'outputSchema',
    'standardSchemas',
    'nestedTools',
    'injected',
    'policy',
    'exposure',
    'family',
    'tags',
    'category',
    'scope',
    'supportsMarkdown',
    'returnDirect',
    'maxResultSizeChars',
    'hostExtension',
    'permissionLevel',
    'isConcurrencySafe',
    'externalEffect',
    'indirectTarget',
    'timeoutPolicy',
    'hostCallExtension',
    'idempotencyKey',
    'displayLabel',
    'displayDetail',
    'execute',
  ],
  {
    needsApproval: 'policy: ToolPolicy.classified().requiringApproval()',
    requiresApproval: 'policy: ToolPolicy.classified().requiringApproval()',
    inputSchema: 'parameters',
    schema: 'parameters',
    args: 'parameters',
    argsSchema: 'parameters',
    run: 'execute',
    handler: 'execute',
    invoke: 'execute',
    func: 'execute',
    timeout: 'policy: ToolPolicy.classified().withRuntime({ timeoutMs })',
    readOnly: 'policy: ToolPolicy.readOnly()',
    toModelOutput: 'execute returning a ToolResult',
  },
);

/** What a definition may hold: a tool's members and `unknownFormats` (read by `defineTool` only). */
const DEFINITION_KEYS: OptionKeys = {
  keys: new Set([...TOOL_KEYS.keys, 'unknownFormats']),
  mistakes: TOOL_KEYS.mistakes,
};

/**
 * Defines a tool with statically typed arguments. `parameters` is a TypeBox schema, a raw JSON
 * Schema object (giving `Record<string, unknown>` arguments) or a Standard Schema value that also
 * implements `StandardJSONSchemaV1` (Zod ≥ 4.2, ArkType ≥ 2.1.28, Valibot via
 * `toStandardJsonSchema()`); its root must be an object. The tool keeps the JSON Schema in
 * `parameters` (what the model sees and ajv checks first) and the library's schema in
 * `standardSchemas` (its `validate` runs second; its output is what `execute` receives).
 * `outputSchema` takes the same kinds; the result is checked against it on every call.
 *
 * The definition is checked now, not on the first call: the name, the schemas (ajv meta-schema,
 * references, linear-time patterns), and the injected arguments (each declared once and present
 * in `parameters.properties`). A key that is not a member of {@link Tool} is refused (a mistyped
 * `needsApproval` would otherwise run the tool without approval).
 *
 * @throws {InvalidInputError} for an unknown key, naming it and the member it probably meant.
 * @throws {ToolDefinitionError} naming the tool and what is wrong with it: a bad name, a schema
 * that does not compile or is not an object, a Zod 3 schema, a validation-only Standard Schema.
 */
export function defineTool<
  const TParams extends ToolSchemaInput,
  const TOutput extends ToolSchemaInput | undefined = undefined,
>(
  definition: ToolDefinition<TParams, TOutput> & { readonly parameters: CheckObjectRoot<TParams> },
): Tool<InferToolArguments<TParams>> {
  if (typeof definition !== 'object' || definition === null) {
    throw new InvalidInputError({ entryPoint: 'defineTool', reason: 'the definition must be an object' });
  }
  if (typeof definition.name !== 'string') {
    throw new InvalidInputError({ entryPoint: 'defineTool', reason: 'the tool name must be a string' });
  }
  const name = definition.name;
  checkOptionKeys('defineTool', definition, DEFINITION_KEYS, { subject: `tool \`${name}\` has an` });
  const fail = (reason: string, cause?: unknown): never => {
    throw new ToolDefinitionError({ toolName: name, reason, cause });
  };
  const problem = checkToolName(name);
  if (problem) fail(describeToolNameProblem(problem));
  if (typeof definition.description !== 'string') fail('the description must be a string');
  if (typeof definition.execute !== 'function') fail('`execute` must be a function');
  if (![undefined, 'refuse', 'annotate'].includes(definition.unknownFormats))
    fail("`unknownFormats` must be 'refuse' or 'annotate'");
  const resolve = (slot: string, input: unknown, side: SchemaSide): ResolvedSchema => {
    try {
      const resolved = resolveSchema(input as ToolSchemaInput, side);
      checkSchema(resolved.jsonSchema, { unknownFormats: definition.unknownFormats });
      return resolved;
    } catch (error) {
      return fail(
        `its ${slot} schema does not compile: ${error instanceof SchemaCompileFailure ? error.message : String(error)}`,
        error,
      );
    }
  };
  const input = definition.parameters as unknown;
  // ArkType schemas are functions; TypeBox, JSON Schema, Zod and Valibot schemas are objects.
  if ((typeof input !== 'object' && typeof input !== 'function') || input === null) {
    fail('`parameters` must be a JSON Schema with `type: "object"` at its root');
  }
  const parameters = resolve('parameters', input, 'input');
  const schema = parameters.jsonSchema;
  if (schema.type !== 'object') fail('`parameters` must be a JSON Schema with `type: "object"` at its root');
  const output =
    definition.outputSchema === undefined ? undefined : resolve('output', definition.outputSchema, 'output');
  if (definition.injected !== undefined && !Array.isArray(definition.injected)) fail('`injected` must be an array');
  const declared = (schema.properties ?? {}) as Record<string, unknown>;
  const seen = new Set<string>();
  for (const argument of definition.injected ?? []) {
    if (seen.has(argument.name)) fail(`injected argument \`${argument.name}\` is declared twice`);
    seen.add(argument.name);
    if (!Object.hasOwn(declared, argument.name)) {
      fail(`injected argument \`${argument.name}\` is not a property of its parameters schema`);
    }
  }
  const standard =
    parameters.standard === undefined && output?.standard === undefined
      ? undefined
      : { parameters: parameters.standard, output: output?.standard };
  const { outputSchema: _declaredOutput, unknownFormats: _unknownFormats, ...rest } = definition;
  return {
    ...rest,
    parameters: schema,
    ...(output === undefined ? {} : { outputSchema: output.jsonSchema }),
    ...(standard === undefined ? {} : { standardSchemas: standard }),
  } as unknown as Tool<InferToolArguments<TParams>>;
}

/**
 * The schema the model sees for `tool`: its declared parameters with injected arguments removed
 * and tiny's host-side `x-tiny-*` annotations (such as `x-tiny-sensitive`) stripped. Cached per
 * tool object.
 */
export function modelFacingParameters(tool: Pick<Tool<never>, 'parameters' | 'injected'>): JsonSchema {
  const cached = modelSchemas.get(tool);
  if (cached) return cached;
  const projected = stripHostAnnotations(projectInjectedArguments(tool.parameters, tool.injected ?? []));
  modelSchemas.set(tool, projected);
  return projected;
}
