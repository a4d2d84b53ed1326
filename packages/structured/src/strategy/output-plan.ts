import type { StandardSchemaV1 } from '@standard-schema/spec';
import { applySchemaTransform, type ModelProfile, type SchemaTransform, toStrictSchema } from '@tiny/llm';
import { createValidator, type JsonSchema, type Validator } from '@tiny/tools';
import type { ResponseFormat, StructuredStrategy } from '../format/response-format.js';

/** One shape the answer may take: the whole schema, or one union variant (tool strategy). @internal */
export interface OutputTarget {
  /** The output tool's name (tool strategy). */
  readonly toolName: string;
  readonly variant: string | undefined;
  /** The declared schema: local validation always uses it. */
  readonly declared: JsonSchema;
  readonly validator: Validator;
  /** The declared schema as sent, before the strict and profile transforms (wrapped when `wrapped`). */
  readonly wireDeclared: JsonSchema;
  /** What the model sees. */
  readonly wire: JsonSchema;
  /**
   * The schema a text answer is recovered against (`parseWithSchema`): the declared schema as the
   * model was asked to write it (wrapped when `wrapped`, strict when `strict`), without the
   * profile's transform.
   */
  readonly recoverySchema: JsonSchema;
  /** A non-object root travels as `{ value: ... }` (providers want object roots). */
  readonly wrapped: boolean;
  /** Map strict-mode `null`s back with `fromStrictValue`. */
  readonly strict: boolean;
}

/** Everything a strategy needs, computed once per run. @internal */
export interface OutputPlan {
  readonly schemaName: string;
  readonly description: string | undefined;
  readonly strategy: StructuredStrategy;
  readonly strict: boolean;
  /** Tool strategy: one per output tool. Text strategies: the one target. */
  readonly targets: readonly OutputTarget[];
  /** Union variants for recording which one a text answer matched (empty when not a union). */
  readonly variants: readonly { readonly name: string; readonly validator: Validator }[];
  readonly template: string | undefined;
  /** Ask for JSON mode (prompted strategy on a profile with `json_object` output). */
  readonly jsonMode: boolean;
  /** The Standard Schema of the format, run after ajv. */
  readonly standard: StandardSchemaV1 | undefined;
}

/** The prompted strategy's default instruction. */
export const DEFAULT_PROMPTED_TEMPLATE =
  'Answer with a single JSON value that matches the JSON Schema below. Write only the JSON: no prose and no code fence.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasStrictTransform(transform: SchemaTransform | undefined): boolean {
  if (transform === undefined) return false;
  if (transform.type === 'openai_strict') return true;
  return transform.type === 'chain' && transform.transforms.some(hasStrictTransform);
}

function isObjectRoot(schema: JsonSchema): boolean {
  return schema.type === 'object' || (schema.type === undefined && isRecord(schema.properties));
}

/** The root `anyOf`/`oneOf` branches of a union schema, or undefined. */
function unionBranches(schema: JsonSchema): readonly JsonSchema[] | undefined {
  if (schema.type !== undefined || schema.properties !== undefined) return undefined;
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (branches === undefined || branches.length < 2 || !branches.every(isRecord)) return undefined;
  return branches as JsonSchema[];
}

function variantNames(branches: readonly JsonSchema[]): string[] {
  const names = branches.map((branch, index) => {
    const title = typeof branch.title === 'string' ? branch.title.replace(/[^A-Za-z0-9_-]+/g, '_') : '';
    return title === '' ? `option_${index + 1}` : title;
  });
  return names.map((name, index) => (names.indexOf(name) === index ? name : `${name}_${index + 1}`));
}

function createTarget(
  toolName: string,
  variant: string | undefined,
  declared: JsonSchema,
  root: JsonSchema,
  strict: boolean,
  transform: SchemaTransform | undefined,
  wrapNonObjects: boolean,
): OutputTarget {
  const wrapped = wrapNonObjects && !isObjectRoot(declared);
  // Variants of a union may reference the root's `$defs`; keep them reachable.
  const defs = root !== declared && isRecord(root.$defs) ? { $defs: root.$defs } : {};
  const base: JsonSchema = '$defs' in defs ? { ...defs, ...declared } : declared;
  const wireDeclared: JsonSchema = wrapped
    ? {
        type: 'object',
        properties: { value: declared },
        required: ['value'],
        additionalProperties: false,
        ...defs,
      }
    : base;
  const recoverySchema = strict ? toStrictSchema(wireDeclared) : wireDeclared;
  const wire = transform === undefined ? recoverySchema : applySchemaTransform(recoverySchema, transform);
  return {
    toolName,
    variant,
    declared: base,
    validator: createValidator(base),
    wireDeclared,
    wire,
    recoverySchema,
    wrapped,
    strict,
  };
}

/**
 * Prepares the schemas for a strategy: the declared schema for local validation, the wire schema
 * (wrapped when the root is not an object, strict when asked, then the profile's transform), and
 * for the tool strategy one target per union variant.
 * @throws {SchemaCompileFailure} when the declared schema does not compile.
 * @internal
 */
export function createOutputPlan(
  format: ResponseFormat<unknown>,
  strategy: StructuredStrategy,
  profile: ModelProfile,
): OutputPlan {
  // Plans are cached per format object, so validators compile once, not on every run.
  const key = `${strategy}|${profile.structuredOutput}|${JSON.stringify(profile.schemaTransform ?? null)}`;
  let byKey = plans.get(format);
  if (byKey === undefined) {
    byKey = new Map();
    plans.set(format, byKey);
  }
  const cached = byKey.get(key);
  if (cached !== undefined) return cached;
  const plan = buildPlan(format, strategy, profile);
  byKey.set(key, plan);
  return plan;
}

const plans = new WeakMap<object, Map<string, OutputPlan>>();

function buildPlan(format: ResponseFormat<unknown>, strategy: StructuredStrategy, profile: ModelProfile): OutputPlan {
  const { name, description, schema } = format.schema;
  const strict = format.schema.strict === true || hasStrictTransform(profile.schemaTransform);
  const transform = profile.schemaTransform;
  const branches = unionBranches(schema);
  const names = branches === undefined ? [] : variantNames(branches);
  const variants =
    branches === undefined
      ? []
      : branches.map((branch, index) => ({
          name: names[index] as string,
          validator: createValidator({ ...(isRecord(schema.$defs) ? { $defs: schema.$defs } : {}), ...branch }),
        }));
  let targets: OutputTarget[];
  if (strategy === 'tool' && branches !== undefined) {
    targets = branches.map((branch, index) => {
      const variant = names[index] as string;
      return createTarget(`${name}_${variant}`, variant, branch, schema, strict, transform, true);
    });
  } else {
    targets = [createTarget(name, undefined, schema, schema, strict, transform, strategy !== 'prompted')];
  }
  return {
    schemaName: name,
    description,
    strategy,
    strict,
    targets,
    variants,
    template: format.template,
    jsonMode: strategy === 'prompted' && profile.structuredOutput !== 'none',
    standard: format.standard,
  };
}
