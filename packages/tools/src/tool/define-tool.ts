import type { Static, TSchema } from 'typebox';
import { InvalidInputError } from '../errors/invalid-input-error.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import { checkSchema, SchemaCompileFailure } from '../validation/create-validator.js';
import type { JsonSchema } from '../validation/json-schema.js';
import { projectInjectedArguments } from './injected-arguments.js';
import type { Tool } from './tool.js';
import { checkToolName, describeToolNameProblem } from './tool-name.js';

/**
 * The arguments `execute` receives for a parameters schema: the TypeBox static type, or
 * `Record<string, unknown>` for a raw JSON Schema whose type TypeScript cannot know.
 */
export type InferToolArguments<TParams> = TParams extends TSchema
  ? unknown extends Static<TParams>
    ? Record<string, unknown>
    : Static<TParams> extends Record<string, unknown>
      ? Static<TParams>
      : Record<string, unknown>
  : Record<string, unknown>;

/** What {@link defineTool} takes: a {@link Tool} whose `parameters` is a TypeBox (or raw JSON) schema. */
export type ToolDefinition<TParams extends TSchema | JsonSchema> = Omit<
  Tool<InferToolArguments<TParams>>,
  'parameters'
> & {
  readonly parameters: TParams;
};

const modelSchemas = new WeakMap<object, JsonSchema>();

/** Every member a {@link Tool} may have; any other key in a definition is a mistake. */
const TOOL_KEYS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'parameters',
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
]);

/** What other libraries call a member, and what it is here. */
const KNOWN_MISTAKES: Readonly<Record<string, string>> = {
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
};

/** The suggestion for an unknown key: a known mistake, else the closest member within two edits. */
function suggestKey(key: string): string | undefined {
  const known = KNOWN_MISTAKES[key];
  if (known !== undefined) return known;
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of TOOL_KEYS) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Defines a tool with statically typed arguments. `parameters` is a TypeBox schema (or a raw JSON
 * Schema object, giving `Record<string, unknown>` arguments) whose root must be an object.
 * The definition is checked now, not on the first call: the name, the schema (compiled with ajv),
 * and the injected arguments (each declared once and present in `parameters.properties`).
 *
 * A key that is not a member of {@link Tool} is refused (a mistyped `needsApproval` would
 * otherwise run the tool without approval).
 *
 * @throws {InvalidInputError} for an unknown key, naming it and the member it probably meant.
 * @throws {ToolDefinitionError} naming the tool and what is wrong with it.
 */
export function defineTool<const TParams extends TSchema | JsonSchema>(
  definition: ToolDefinition<TParams>,
): Tool<InferToolArguments<TParams>> {
  if (typeof definition !== 'object' || definition === null) {
    throw new InvalidInputError({ entryPoint: 'defineTool', reason: 'the definition must be an object' });
  }
  if (typeof definition.name !== 'string') {
    throw new InvalidInputError({ entryPoint: 'defineTool', reason: 'the tool name must be a string' });
  }
  const name = definition.name;
  for (const key of Object.keys(definition)) {
    if (TOOL_KEYS.has(key)) continue;
    const suggestion = suggestKey(key);
    throw new InvalidInputError({
      entryPoint: 'defineTool',
      reason: `tool \`${name}\` has an unknown option \`${key}\`${suggestion === undefined ? '' : `; did you mean \`${suggestion}\`?`}`,
    });
  }
  const fail = (reason: string, cause?: unknown): never => {
    throw new ToolDefinitionError({ toolName: name, reason, cause });
  };
  const problem = checkToolName(name);
  if (problem) fail(describeToolNameProblem(problem));
  if (typeof definition.description !== 'string') fail('the description must be a string');
  if (typeof definition.execute !== 'function') fail('`execute` must be a function');
  const schema = definition.parameters as JsonSchema;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
    fail('`parameters` must be a JSON Schema with `type: "object"` at its root');
  }
  try {
    checkSchema(schema);
  } catch (error) {
    fail(
      `its parameters schema does not compile: ${error instanceof SchemaCompileFailure ? error.message : String(error)}`,
      error,
    );
  }
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
  return { ...definition } as Tool<InferToolArguments<TParams>>;
}

/**
 * The schema the model sees for `tool`: its declared parameters with injected arguments removed.
 * Cached per tool object.
 */
export function modelFacingParameters(tool: Pick<Tool<never>, 'parameters' | 'injected'>): JsonSchema {
  const cached = modelSchemas.get(tool);
  if (cached) return cached;
  const projected = projectInjectedArguments(tool.parameters, tool.injected ?? []);
  modelSchemas.set(tool, projected);
  return projected;
}
