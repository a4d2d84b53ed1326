import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isMarked, TinyError } from '../errors/tiny-error.js';
import {
  countingCopy,
  loopsInPlace,
  MAX_COLLECTED_ERRORS,
  OVERFLOW,
  runBudgeted,
  SPENT,
  schemaNodesOf,
  useBranchBudget,
  visitBudget,
} from './branch-budget.js';
import { useStrictFormats } from './formats.js';
import { isIdnEmail, isIdnHostnameFormat, isIri, isIriReference } from './idn-formats.js';
import type { JsonSchema } from './json-schema.js';
import { linearPatternProblem, linearRegExpEngine } from './linear-regexp.js';
import { validate as validateMeta2020 } from './meta-schema-2020.generated.js';
import { useDecimalMultipleOf } from './multiple-of.js';
import { isSubschemaKeyword, schemaDepth, schemaGraph, unevaluatedLoad } from './schema-graph.js';
import { useLinearUniqueItems } from './unique-items.js';
import type { ValidationIssue } from './validation-issue.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/** Outcome of validating one value. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** A compiled schema. Create one with {@link createValidator}; it is cached per schema object (and the compiled code per schema content). */
export interface Validator<T = unknown> {
  /** The schema this validator was compiled from (the same object). */
  readonly schema: JsonSchema;
  /**
   * Checks `value` against the schema; never throws and never mutates `value`. The work is bounded:
   * every subschema application is a visit (however it is reached: `$ref`, union branch, `items`)
   * charged with what its keywords do each time (`enum`/`const` data, `properties` names,
   * `patternProperties` patterns × keys), `format` checks by their measured cost and `pattern`
   * matching by length × the pattern's compiled program size, plus the size of what a keyword reads whole and
   * `uniqueItems` keying, at most 20,000 plus 2 per (value weight × schema weight) pair, the schema
   * weighed as its `$ref`s expand it, and never more than 2,000,000. Collecting every issue past that
   * budget (a hostile recursive union) or past 1,000 held errors falls back to the first failure,
   * with the same budget (a closing `maxIssues` issue says collection stopped); past that too the
   * value is refused with one issue of keyword `maxBranchVisits`. A value nested past the call
   * stack is refused with one issue of keyword `maxDepth`.
   */
  validate(value: unknown): ValidationResult<T>;
  /**
   * Whether `value` is valid, without issues: the check stops at the first failure, so a value
   * that fails deep inside a recursive `anyOf` costs one failed branch per level, where
   * {@link Validator.validate} (which collects every issue) explores every branch of every level.
   * Compiled on first use. Never throws. `false` once the visit budget of `validate` is spent.
   */
  test(value: unknown): value is T;
}

const failureMarker = Symbol.for('tiny.error.SchemaCompileFailure');

/** A schema size limit a {@link SchemaCompileFailure} names. */
export type SchemaLimit = 'maxSchemaNodes' | 'maxSubschemaEntries' | 'maxUnevaluatedEntries' | 'maxSchemaDepth';
/** A keyword a schema is refused for (see {@link SchemaCompileFailure.unsupportedKeyword}). */
export type UnsupportedKeyword = '$dynamicRef' | '$dynamicAnchor';

/** Thrown by {@link createValidator} when ajv cannot compile a schema (or it is not an object). */
export class SchemaCompileFailure extends TinyError {
  readonly [failureMarker] = true;
  /**
   * The size limit the schema is past, when that is why it is refused: `maxSchemaNodes`
   * ({@link MAX_SCHEMA_NODES}), `maxSubschemaEntries` ({@link MAX_SUBSCHEMA_ENTRIES}) or
   * `maxUnevaluatedEntries` ({@link MAX_UNEVALUATED_ENTRIES}) or `maxSchemaDepth` ({@link MAX_SCHEMA_DEPTH}).
   */
  readonly limit: SchemaLimit | undefined;
  /** The `format` name, when the schema is refused for naming a format tiny does not enforce. */
  readonly format: string | undefined;
  /**
   * The keyword, when the schema is refused for using one tiny cannot check exactly:
   * `$dynamicRef` or `$dynamicAnchor` (ajv 8 resolves them against the wrong schema).
   */
  readonly unsupportedKeyword: UnsupportedKeyword | undefined;

  constructor(
    message: string,
    options?: {
      cause?: unknown;
      limit?: SchemaLimit;
      format?: string;
      unsupportedKeyword?: UnsupportedKeyword;
    },
  ) {
    super('SchemaCompileFailure', message, options);
    this.limit = options?.limit;
    this.format = options?.format;
    this.unsupportedKeyword = options?.unsupportedKeyword;
  }

  static override isInstance(value: unknown): value is SchemaCompileFailure {
    return isMarked(value, failureMarker);
  }
}

const draft07 = /json-schema\.org\/draft-0[67]\/schema/;
let ajv2020: Ajv | undefined;
let ajv07: Ajv | undefined;
/** Instances that stop at the first error, for {@link Validator.test}. */
let failFast2020: Ajv | undefined;
let failFast07: Ajv | undefined;
/**
 * 2020-12 instances that do not track evaluated properties and items, for schemas without
 * `unevaluatedProperties`/`unevaluatedItems`: with tracking on, ajv tries every `anyOf` branch
 * even after one passed (to merge what they evaluated), so a valid value under a recursive union
 * costs branches^depth; without it the first passing branch ends the union.
 */
let lean2020: Ajv | undefined;
let leanFailFast2020: Ajv | undefined;
/** Validators by schema object, per {@link UnknownFormats} mode. */
const caches = { refuse: new WeakMap<object, Validator>(), annotate: new WeakMap<object, Validator>() };
/**
 * Compiled functions by schema text, so a schema rebuilt with the same content (tools defined per
 * request, a TypeBox schema built again) reuses one ajv compile. Bounded: the oldest entry goes
 * first once it is full.
 */
const compiledByText = new Map<string, ValidateFunction>();
const COMPILED_BY_TEXT_LIMIT = 512;
/**
 * Schemas whose compile failed, by object and by text (bounded as {@link compiledByText}): a tool
 * whose schema cannot compile fails each call at once, never compiling it again.
 */
const failures = {
  refuse: new WeakMap<object, SchemaCompileFailure>(),
  annotate: new WeakMap<object, SchemaCompileFailure>(),
};
const failuresByText = new Map<string, SchemaCompileFailure>();

/**
 * What a schema naming a `format` tiny does not know gets: `'refuse'` (the default) refuses the
 * schema (a {@link SchemaCompileFailure} with `format` set); `'annotate'` accepts it and treats
 * the unknown format as an annotation: it is NOT checked (any string passes it), as JSON Schema
 * 2020-12 allows. For hosts that must take third-party schemas as they are (an MCP server's
 * `format: "textarea"`). Known formats are enforced either way.
 */
export type UnknownFormats = 'refuse' | 'annotate';

/** Options of {@link createValidator} and {@link checkSchema}. */
export interface ValidatorOptions {
  /**
   * See {@link UnknownFormats}; default `'refuse'`. `'annotate'` sticks to the schema object: a
   * later call for the same object without the option (a tool's validation at each call) keeps it.
   */
  readonly unknownFormats?: UnknownFormats | undefined;
}

/** Schema objects accepted once with `unknownFormats: 'annotate'`. */
const annotatingFormats = new WeakSet<object>();

/** The {@link UnknownFormats} mode for `schema`: the option, else the one it was accepted with. */
function formatsMode(schema: object, options: ValidatorOptions | undefined): UnknownFormats {
  if (options?.unknownFormats === 'annotate') {
    annotatingFormats.add(schema);
    return 'annotate';
  }
  if (options?.unknownFormats === 'refuse') return 'refuse';
  return annotatingFormats.has(schema) ? 'annotate' : 'refuse';
}

/** The key of `text` in the by-text caches (a mode's own entries: refusing and annotating differ). */
const textKey = (text: string | undefined, mode: UnknownFormats): string | undefined =>
  text === undefined || mode === 'refuse' ? text : `annotate\u0000${text}`;

function createAjv(kind: '2020' | '07', allErrors = true, unevaluated = true): Ajv {
  // strict: false lets provider-specific keywords (`x-...`, `examples`) pass through unenforced;
  // useDefaults/coerceTypes stay off: validation never rewrites the model's arguments.
  // code.regExp: `pattern` and `patternProperties` run on RE2JS, in time linear in the input.
  // validateSchema: false on the 2020-12 instance: schemas are checked against the meta-schema by
  // the validator compiled ahead of time (see validateAgainstMeta), not by compiling it here.
  // code.optimize: false: ajv's optimiser pass walks the generated code tree again and again
  // (superlinear: 1000 inline unions took 3.4 s to compile, 2.2 s without it); measured without
  // a difference in validation speed.
  // inlineRefs: false: a `$ref` is a call, never a copy of its target's code, so compile time is
  // linear in the schema as written (a 2,000-property definition named 100 times was 200,000
  // inlined checks, and the first-error code nested them past the stack).
  // logger: false: a failed compile is reported as a SchemaCompileFailure, not printed with its code.
  // ownProperties: `required`, `properties` and `dependent*` test own properties only, so
  // `required: ['constructor']` refuses `{}` and `properties: {toString: ...}` accepts it.
  const options = {
    allErrors,
    ownProperties: true,
    strict: false,
    validateFormats: true,
    inlineRefs: false,
    logger: false as const,
    code: { regExp: linearRegExpEngine, optimize: false },
  };
  const ajv =
    kind === '2020' ? (new Ajv2020({ ...options, validateSchema: false }) as unknown as Ajv) : new Ajv(options);
  // Ajv2020's constructor forces `unevaluated: true`; compiles read the option from `opts`.
  if (kind === '2020') (ajv.opts as { unevaluated?: boolean }).unevaluated = unevaluated;
  addFormats(ajv);
  // The 2020-12 formats ajv-formats leaves out (see idn-formats.ts).
  ajv.addFormat('iri', { type: 'string', validate: isIri });
  ajv.addFormat('iri-reference', { type: 'string', validate: isIriReference });
  ajv.addFormat('idn-hostname', { type: 'string', validate: isIdnHostnameFormat });
  ajv.addFormat('idn-email', { type: 'string', validate: isIdnEmail });
  // Linear checks for ajv-formats' superlinear ones, and 2020-12's meaning where it differs (formats.ts).
  useStrictFormats(ajv);
  // ajv's `uniqueItems` compares every pair of non-primitive items; this one is linear.
  useLinearUniqueItems(ajv);
  // ajv's `multipleOf` divides in binary floating point (19.99 is not a multiple of 0.01); this
  // one compares the decimal numbers JSON wrote.
  useDecimalMultipleOf(ajv);
  // Counts `$ref` and union-branch visits, so validate/test stop once a value's budget is spent.
  useBranchBudget(ajv);
  return ajv;
}

function ajvFor(schema: JsonSchema, fresh: boolean): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const kind = draft07.test(declared) ? '07' : '2020';
  if (fresh) return createAjv(kind);
  if (kind === '07') {
    ajv07 ??= createAjv('07');
    return ajv07;
  }
  ajv2020 ??= createAjv('2020');
  return ajv2020;
}

/** A fail-fast compile of `schema` (already checked by {@link compile}): no issues, first error ends it. */
function compileFailFast(schema: JsonSchema): ValidateFunction {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  const kind = draft07.test(declared) ? '07' : '2020';
  const unevaluated = kind === '2020' && usesUnevaluated(schema);
  let ajv: Ajv;
  if (kind === '07') ajv = failFast07 ??= createAjv('07', false);
  else if (unevaluated) ajv = failFast2020 ??= createAjv('2020', false);
  else ajv = leanFailFast2020 ??= createAjv('2020', false, false);
  const counting = countingCopy(schema);
  let compiled: ValidateFunction;
  try {
    compiled = ajv.compile(counting);
    ajv.removeSchema(counting);
  } catch {
    // Two unrelated schemas may share an `$id` (see compile): a fresh instance takes the second.
    compiled = createAjv(kind, false, unevaluated).compile(counting);
  }
  schemaNodes.set(compiled, schemaNodesOf(counting));
  if (loopsInPlace(counting)) selfLooping.add(compiled);
  return compiled;
}

/** The expanded weight of the schema of each compiled function (the visit budget grows with it). */
const schemaNodes = new WeakMap<ValidateFunction, number>();
/** Compiled functions whose schema can reach a subschema again without reading the value. */
const selfLooping = new WeakSet<ValidateFunction>();

/** Runs a compiled check within its visit budget (see branch-budget.ts). */
function run(check: ValidateFunction, value: unknown, maxErrors?: number): boolean | typeof SPENT | typeof OVERFLOW {
  return runBudgeted(check, value, schemaNodes.get(check) ?? 1, maxErrors);
}

/** Whether any object in `schema` has an `unevaluatedProperties` or `unevaluatedItems` key (iterative walk). */
function usesUnevaluated(schema: JsonSchema): boolean {
  const stack: unknown[] = [schema];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && ('unevaluatedProperties' in node || 'unevaluatedItems' in node)) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  return false;
}

/**
 * The issue of a schema that refers back to itself before looking at the value (`anyOf: [...,
 * {$ref: '#'}]`): ajv's code recurses until the stack overflows, for any value.
 */
const recursionIssue: ValidationIssue = {
  path: '',
  keyword: '$ref',
  message: 'cannot be checked: the schema refers back to itself without reading the value',
};

/**
 * The issue of a value nested deeper than the check's call stack reaches (ajv's code recurses
 * once per level or more), under a schema that cannot loop without reading the value.
 */
const depthIssue: ValidationIssue = {
  path: '',
  keyword: 'maxDepth',
  message: 'cannot be checked: the value is nested too deeply for the call stack',
};

/**
 * Value depth from which a stack overflow is put down to the value: ajv's code takes a few frames
 * per level, so a value this shallow cannot exhaust the stack (thousands of frames) by itself.
 */
const SHALLOW_VALUE_DEPTH = 100;

/** Whether `value` nests arrays/objects more than {@link SHALLOW_VALUE_DEPTH} levels (iterative). */
function isDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= SHALLOW_VALUE_DEPTH) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The issue of a stack overflow while running `check` on `value`: the schema's self-reference
 * when it has a loop (reachable from the root) and the value is shallow, else the value's depth
 * (a loop behind an `if` the deep value never takes does not make the depth the schema's fault).
 */
function stackIssue(check: ValidateFunction, value: unknown): ValidationIssue {
  return selfLooping.has(check) && !isDeep(value) ? recursionIssue : depthIssue;
}

/** The issue of a value whose first-failure check could not be compiled (never expected: see the limits). */
function uncompiledIssue(error: unknown): ValidationIssue {
  return {
    path: '',
    keyword: 'maxBranchVisits',
    message: `cannot be checked: collecting every issue spent the visit budget and the first-failure check did not compile (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`,
  };
}

/**
 * The issue of a value whose check would take more than `budget` subschema visits (`$ref`s and
 * union branches), even stopping at the first failure: refused, never let through.
 */
function budgetIssue(budget: number): ValidationIssue {
  return {
    path: '',
    keyword: 'maxBranchVisits',
    message: `cannot be checked: the schema needs more than ${budget} subschema visits for this value`,
  };
}

/** The closing issue once collecting every issue was stopped at {@link MAX_COLLECTED_ERRORS}. */
const collectionStoppedIssue: ValidationIssue = {
  path: '',
  keyword: 'maxIssues',
  message: `and more issues (collection stopped after ${MAX_COLLECTED_ERRORS})`,
};

/** The ahead-of-time 2020-12 meta-schema validator (ajv standalone code), as ajv calls it. */
const meta2020 = validateMeta2020 as unknown as ((schema: unknown) => boolean) & { errors?: ErrorObject[] | null };
/** Schema objects that passed {@link validateAgainstMeta}. */
const metaChecked = new WeakSet<object>();
const META_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/**
 * Checks `schema` against its meta-schema, as `ajv.validateSchema` does: schemas of the 2020-12
 * dialect (no `$schema`, or 2020-12's) with the precompiled validator, any other through ajv.
 * @throws {SchemaCompileFailure} naming the first problems (`schema/required must be array`).
 */
function validateAgainstMeta(ajv: Ajv, schema: JsonSchema): void {
  // `defineTool` checks a schema and `createValidator` compiles it later: the same object is checked once.
  if (metaChecked.has(schema)) return;
  const declared = schema.$schema;
  const precompiled =
    ajv === ajv2020 && (declared === undefined || (typeof declared === 'string' && META_2020.test(declared)));
  let valid: boolean;
  let errors: ErrorObject[] | null | undefined;
  try {
    if (precompiled) {
      valid = meta2020(schema);
      errors = meta2020.errors;
    } else {
      valid = ajv.validateSchema(schema) as boolean;
      errors = ajv.errors;
    }
  } catch (error) {
    throw new SchemaCompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (!valid) throw new SchemaCompileFailure(ajv.errorsText(errors, { dataVar: 'schema' }));
  metaChecked.add(schema);
}

function compile(schema: JsonSchema, mode: UnknownFormats): ValidateFunction {
  let ajv = ajvFor(schema, false);
  checkShape(schema);
  checkGraph(schema, ajv, mode);
  checkRefs(schema);
  if (ajv === ajv2020) {
    validateAgainstMeta(ajv, schema);
    if (!usesUnevaluated(schema)) ajv = lean2020 ??= createAjv('2020', true, false);
  }
  // The compiled copy counts its `$ref` and union-branch visits (see branch-budget.ts).
  const counting = countingCopy(schema);
  let compiled: ValidateFunction;
  try {
    compiled = ajv.compile(counting);
    // The compiled function is kept in our WeakMap; dropping it from ajv's own cache keeps the
    // shared instance from growing with every schema object a long-lived process compiles.
    ajv.removeSchema(counting);
  } catch (error) {
    // Two unrelated schemas may share an `$id`; the shared instance refuses the second one.
    if (!(error instanceof Error && /already exists/.test(error.message)))
      throw new SchemaCompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
    const kind = ajv === ajv07 ? '07' : '2020';
    compiled = createAjv(kind, true, kind === '2020' && usesUnevaluated(schema)).compile(counting);
  }
  schemaNodes.set(compiled, schemaNodesOf(counting));
  if (loopsInPlace(counting)) selfLooping.add(compiled);
  return compiled;
}

/**
 * Compiles `schema` with ajv 8 once and returns a cached validator for that schema object; a
 * different object with the same JSON text reuses the compiled code.
 * Draft 2020-12 is the default; a `$schema` naming draft-07 (or 06) selects the draft-07 dialect.
 * Every format is enforced: ajv-formats' set (`email`, `date-time`, `uri`, ...) plus `iri`,
 * `iri-reference`, `idn-email` and `idn-hostname` (see idn-formats.ts); a schema naming any other
 * format is refused (a {@link SchemaCompileFailure} with `format` set), never silently accepted,
 * unless the same subschema has a `pattern`: the format then names what the pattern checks (Zod 4
 * writes `format: 'cuid'` beside its regular expression) and the pattern is what is enforced.
 *
 * `pattern` and `patternProperties` run on a linear-time engine (RE2JS), so no pattern a third
 * party writes can make validation backtrack for minutes; each keeps its ECMA-262 meaning (`\s`,
 * `.`), and patterns that are not ECMA-262 syntax, lookaround and backreferences are refused.
 *
 * Integers: JSON cannot tell `1.0` from `1` once parsed, and JSON Schema (draft 6 onward) defines
 * an integer as any number with a zero fractional part, so `1.0`, `1e3` and `-0` are accepted as
 * integers and `1.5` is not. Integers beyond 2^53 are validated after `JSON.parse` has rounded them.
 *
 * @param options `unknownFormats: 'annotate'` accepts formats tiny does not know as unchecked
 * annotations (see {@link UnknownFormats}); the choice sticks to the schema object.
 * @throws {SchemaCompileFailure} when ajv cannot compile the schema (unknown `$ref`, bad keyword
 * value), it names an unknown format in a subschema (`format` set), it uses `$dynamicRef` or
 * `$dynamicAnchor` (`unsupportedKeyword` set), or it is past {@link MAX_SCHEMA_NODES},
 * {@link MAX_SUBSCHEMA_ENTRIES}, {@link MAX_UNEVALUATED_ENTRIES} or {@link MAX_SCHEMA_DEPTH} (`limit` set). A schema that
 * failed once throws the same failure again without being compiled again.
 */
export function createValidator<T = unknown>(schema: JsonSchema, options?: ValidatorOptions): Validator<T> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SchemaCompileFailure('a JSON Schema must be an object');
  }
  const mode = formatsMode(schema, options);
  const cache = caches[mode];
  const cached = cache.get(schema);
  if (cached) return cached as Validator<T>;
  const failedBefore = failures[mode].get(schema);
  if (failedBefore !== undefined) throw failedBefore;
  const text = textKey(schemaText(schema), mode);
  let check = text === undefined ? undefined : compiledByText.get(text);
  if (check === undefined) {
    const failedText = text === undefined ? undefined : failuresByText.get(text);
    if (failedText !== undefined) throw failedText;
    try {
      check = compile(schema, mode);
    } catch (error) {
      const failure = SchemaCompileFailure.isInstance(error)
        ? error
        : new SchemaCompileFailure(error instanceof Error ? error.message : String(error), { cause: error });
      // A schema that failed once fails again: the failure is kept, never recompiled per call.
      failures[mode].set(schema, failure);
      if (text !== undefined) {
        if (failuresByText.size >= COMPILED_BY_TEXT_LIMIT)
          failuresByText.delete(failuresByText.keys().next().value as string);
        failuresByText.set(text, failure);
      }
      throw failure;
    }
    if (text !== undefined) {
      if (compiledByText.size >= COMPILED_BY_TEXT_LIMIT)
        compiledByText.delete(compiledByText.keys().next().value as string);
      compiledByText.set(text, check);
    }
  }
  const compiled = check;
  let failFast: ValidateFunction | Error | undefined;
  /** The fail-fast compile, made once; a compile that fails is kept as its error. */
  const firstFailureCheck = (): ValidateFunction | Error => {
    if (failFast === undefined) {
      try {
        failFast = compileFailFast(schema);
      } catch (error) {
        failFast = error instanceof Error ? error : new Error(String(error));
      }
    }
    return failFast;
  };
  const validator: Validator<T> = {
    schema,
    validate(value) {
      let valid: boolean | typeof SPENT | typeof OVERFLOW;
      try {
        valid = run(compiled, value, MAX_COLLECTED_ERRORS);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        return { ok: false, issues: [stackIssue(compiled, value)] };
      }
      if (valid === SPENT || valid === OVERFLOW) {
        // Collecting every issue spent the budget (a union explored branch by branch at every
        // level) or piled up too many errors: the first failure is enough, found with the same
        // budget; past that, refused.
        const fast = firstFailureCheck();
        if (fast instanceof Error) return { ok: false, issues: [uncompiledIssue(fast)] };
        let firstFailure: boolean | typeof SPENT | typeof OVERFLOW;
        try {
          firstFailure = run(fast, value);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          return { ok: false, issues: [stackIssue(fast, value)] };
        }
        if (firstFailure === SPENT || firstFailure === OVERFLOW)
          return { ok: false, issues: [budgetIssue(visitBudget(value, schemaNodes.get(fast)))] };
        if (firstFailure) return { ok: true, value: value as T };
        const issues = toIssues(fast.errors ?? []);
        return { ok: false, issues: valid === OVERFLOW ? [...issues, collectionStoppedIssue] : issues };
      }
      if (valid) return { ok: true, value: value as T };
      return { ok: false, issues: toIssues(compiled.errors ?? []) };
    },
    test(value): value is T {
      const fast = firstFailureCheck();
      if (fast instanceof Error) return false;
      try {
        return run(fast, value) === true;
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        return false;
      }
    },
  };
  cache.set(schema, validator as Validator);
  return validator;
}

/**
 * The schema as JSON text (the cache key), or undefined when it cannot be serialised (a cycle, a
 * bigint) or holds a non-finite number: JSON writes `Infinity` and `NaN` as `null`, so two different
 * schemas would share one compiled validator (`maximum: -Infinity` reusing `maximum: Infinity`'s).
 */
function schemaText(schema: JsonSchema): string | undefined {
  try {
    return JSON.stringify(schema, finiteOnly);
  } catch {
    return undefined;
  }
}

function finiteOnly(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError('a non-finite number');
  return value;
}

function escapePointer(segment: string): string {
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Characters of a `const`/`enum` value an issue message shows at most; the rest is cut with `…`. */
const MAX_SHOWN_VALUE_CHARS = 200;

/**
 * `value` as JSON, cut after `max` characters with `…`: builds at most about `max` characters
 * whatever the size or depth of the value (iterative; a 1 MB `const` is never serialised whole).
 */
function shortJson(value: unknown, max = MAX_SHOWN_VALUE_CHARS): string {
  let out = '';
  // Pending output: a literal (string) or a value still to write ({ value }).
  const stack: (string | { value: unknown })[] = [{ value }];
  while (stack.length > 0 && out.length <= max) {
    const next = stack.pop() as string | { value: unknown };
    if (typeof next === 'string') {
      out += next;
      continue;
    }
    const node = next.value;
    if (typeof node === 'string') out += JSON.stringify(node.length > max ? node.slice(0, max + 1) : node);
    else if (typeof node !== 'object' || node === null) out += JSON.stringify(node) ?? 'null';
    else {
      // Each entry writes at least one character: past `max` entries nothing more is shown.
      const entries: [string | undefined, unknown][] = [];
      if (Array.isArray(node)) for (let i = 0; i < node.length && i <= max; i++) entries.push([undefined, node[i]]);
      else
        for (const key in node)
          if (Object.hasOwn(node, key)) {
            entries.push([key, (node as Record<string, unknown>)[key]]);
            if (entries.length > max) break;
          }
      stack.push(Array.isArray(node) ? ']' : '}');
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string | undefined, unknown];
        stack.push({ value: item });
        const name = key === undefined ? '' : `${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`;
        stack.push(i > 0 ? `,${name}` : name);
      }
      out += Array.isArray(node) ? '[' : '{';
    }
  }
  return out.length > max || stack.length > 0 ? `${out.slice(0, max)}…` : out;
}

const enumMessages = new WeakMap<object, string>();
const constMessages = new WeakMap<object, string>();

/**
 * `must be one of "a", "b"`, built once per enum array (schemas are long-lived), showing at most
 * {@link MAX_SHOWN_VALUE_CHARS} characters of the values.
 */
function enumMessage(allowed: unknown[]): string {
  let message = enumMessages.get(allowed);
  if (message === undefined) {
    let shown = '';
    for (let i = 0; i < allowed.length && shown.length <= MAX_SHOWN_VALUE_CHARS; i++)
      shown += `${i > 0 ? ', ' : ''}${shortJson(allowed[i])}`;
    if (shown.length > MAX_SHOWN_VALUE_CHARS) shown = `${shown.slice(0, MAX_SHOWN_VALUE_CHARS)}…`;
    message = `must be one of ${shown}`;
    enumMessages.set(allowed, message);
  }
  return message;
}

/** `must be "a"`, showing at most {@link MAX_SHOWN_VALUE_CHARS} characters (built once per object value). */
function constMessage(allowed: unknown): string {
  if (typeof allowed !== 'object' || allowed === null) return `must be ${shortJson(allowed)}`;
  let message = constMessages.get(allowed);
  if (message === undefined) {
    message = `must be ${shortJson(allowed)}`;
    constMessages.set(allowed, message);
  }
  return message;
}

/** Issues reported for one value at most; the rest are counted in one closing issue. */
const MAX_VALIDATION_ISSUES = 100;

/**
 * Maps ajv's errors to issues with JSON-pointer paths; drops the noise ajv adds for failed
 * `if`/`anyOf` branches and duplicates. Linear in the number of errors (a hashed key per issue):
 * a big invalid array yields one error per item. At most {@link MAX_VALIDATION_ISSUES} are kept;
 * past them one closing issue (keyword `maxIssues`) says how many more there were.
 */
function toIssues(errors: readonly ErrorObject[]): ValidationIssue[] {
  if (errors.length === 1 && errors[0]?.keyword !== 'if') return [toIssue(errors[0] as ErrorObject)];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  let more = 0;
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const issue = toIssue(error);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (issues.length < MAX_VALIDATION_ISSUES) issues.push(issue);
    else more += 1;
  }
  if (more > 0) issues.push({ path: '', keyword: 'maxIssues', message: `and ${more} more issues` });
  return issues;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.missingProperty))}`,
        keyword: 'required',
        message: 'is required',
      };
    case 'additionalProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.additionalProperty))}`,
        keyword: 'additionalProperties',
        message: 'is not allowed',
      };
    case 'unevaluatedProperties':
      return {
        path: `${error.instancePath}/${escapePointer(String(params.unevaluatedProperty))}`,
        keyword: 'unevaluatedProperties',
        message: 'is not allowed',
      };
    case 'enum':
      return {
        path: error.instancePath,
        keyword: 'enum',
        message: enumMessage(params.allowedValues as unknown[]),
      };
    case 'const':
      return { path: error.instancePath, keyword: 'const', message: constMessage(params.allowedValue) };
    default:
      return { path: error.instancePath, keyword: error.keyword, message: error.message ?? `fails ${error.keyword}` };
  }
}

function decodePointer(segment: string): string {
  let name = segment;
  try {
    name = decodeURIComponent(segment);
  } catch {
    throw new SchemaCompileFailure(`can't resolve reference segment ${segment.slice(0, 100)} (bad percent-encoding)`);
  }
  return name.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Every `$ref` in `schema` must resolve inside it: a local JSON pointer or an `$id` it declares. */
function checkRefs(root: JsonSchema): void {
  const ids = new Set<string>();
  const refs: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 256 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.$id === 'string') ids.add(record.$id);
    if (typeof record.$ref === 'string') refs.push(record.$ref);
    for (const [key, value] of Object.entries(record)) if (key !== 'enum' && key !== 'const') walk(value, depth + 1);
  };
  walk(root, 0);
  for (const ref of refs) {
    if (ids.has(ref)) continue;
    if (!ref.startsWith('#'))
      throw new SchemaCompileFailure(`can't resolve reference ${ref} (only local references are supported)`);
    if (ref === '#' || !ref.startsWith('#/')) continue;
    let target: unknown = root;
    for (const segment of ref.slice(2).split('/')) {
      const name = decodePointer(segment);
      // Own keys only: `#/$defs/constructor` or `#/$defs/__proto__` name nothing unless defined.
      if (typeof target !== 'object' || target === null || !Object.hasOwn(target, name)) {
        target = undefined;
        break;
      }
      target = (target as Record<string, unknown>)[name];
    }
    // A schema is an object or a boolean; `#/required` names a list of names, not a schema.
    if ((typeof target !== 'object' || target === null || Array.isArray(target)) && typeof target !== 'boolean') {
      throw new SchemaCompileFailure(`can't resolve reference ${ref} to a schema`);
    }
  }
}

/** Keywords whose value is data, not a schema: nothing under them is a `pattern`. */
const dataKeywords = new Set(['enum', 'const', 'default', 'examples', 'dependentRequired', '$vocabulary']);

/**
 * Every `pattern` and `patternProperties` key of a subschema of `root` (one ajv applies: reached
 * through subschema keywords or a `$ref`, never data under an annotation such as `example`) must
 * compile on the linear-time engine.
 */
function checkPatterns(root: JsonSchema): void {
  const check = (pattern: string): void => {
    const problem = linearPatternProblem(pattern);
    if (problem !== undefined) throw new SchemaCompileFailure(problem);
  };
  for (const node of schemaGraph(root).edges.keys()) {
    const record = node as Record<string, unknown>;
    if (typeof record.pattern === 'string') check(record.pattern);
    const patterns = Object.hasOwn(record, 'patternProperties') ? record.patternProperties : undefined;
    if (typeof patterns === 'object' && patterns !== null) for (const name of Object.keys(patterns)) check(name);
  }
}

/**
 * Checks that ajv will be able to compile `schema`, without compiling it: the schema must be valid
 * against its draft's meta-schema, within {@link MAX_SCHEMA_NODES}, {@link MAX_SUBSCHEMA_ENTRIES},
 * {@link MAX_UNEVALUATED_ENTRIES} and {@link MAX_SCHEMA_DEPTH}, use no `$dynamicRef`/`$dynamicAnchor`,
 * name only formats tiny enforces in its subschemas, every `$ref` must resolve inside it and every `pattern` must
 * compile on the linear-time engine. Much cheaper than a
 * compile (which happens on the first validation), so tools can be defined and registered fast.
 *
 * @throws {SchemaCompileFailure} naming what is wrong.
 */
export function checkSchema(schema: JsonSchema, options?: ValidatorOptions): void {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new SchemaCompileFailure('a JSON Schema must be an object');
  }
  const mode = formatsMode(schema, options);
  if (caches[mode].has(schema)) return;
  const failedBefore = failures[mode].get(schema);
  if (failedBefore !== undefined) throw failedBefore;
  const text = textKey(schemaText(schema), mode);
  if (text !== undefined && compiledByText.has(text)) return;
  const ajv = ajvFor(schema, false);
  checkShape(schema);
  checkGraph(schema, ajv, mode);
  validateAgainstMeta(ajv, schema);
  checkRefs(schema);
  checkPatterns(schema);
}

/**
 * Most schema nodes (objects in schema position, `$defs` included) a schema may have: ajv's
 * compile (and V8's of the one function it generates) takes time superlinear in them, twice
 * (every issue and first failure). Measured on a loaded 2-core machine, each compile of an
 * `anyOf` of branches of 9 properties: 200 branches (2,000 nodes) 0.7 s, 400 (4,000) 1.7 s, 600
 * (6,000) 4 to 10 s, 985 (9,850) 11 s; `properties` of 800 objects of 9 (8,000) 3.5 to 6 s.
 */
export const MAX_SCHEMA_NODES = 4000;
/**
 * Most subschema entries (`properties`, `patternProperties`, `dependentSchemas`, and the entries
 * of `allOf`, `anyOf`, `oneOf`, `prefixItems`) on any path from the root to a subschema, one more
 * per level: ajv's first-failure code nests each entry inside the previous one's success, so its
 * compile is quadratic in them and past about 2,000 the generated function overflows the stack
 * when it is first called (2,000 root `allOf` unions took 19 s, then reported a wrong issue).
 */
export const MAX_SUBSCHEMA_ENTRIES = 1000;
const entryKeywords = ['properties', 'patternProperties', 'dependentSchemas', 'allOf', 'anyOf', 'oneOf', 'prefixItems'];

/** Name-to-schema maps whose `__proto__` entry ajv leaves out of its checks. */
const protoSkippingMaps = ['dependencies'];

/**
 * Most entries (property names, `patternProperties`, `prefixItems`, `dependentSchemas` and
 * `allOf`/`anyOf`/`oneOf` entries) an `unevaluatedProperties`/`unevaluatedItems` keyword may have to
 * track: those of its schema and of the subschemas applied in place (`allOf`, `anyOf`, `oneOf`,
 * `not`, `if`/`then`/`else`, `dependentSchemas`) down to one with its own `unevaluated*` keyword.
 * ajv merges what each of them evaluated at compile time, superlinearly: measured on a loaded
 * 2-core machine (every-issue and first-failure compiles together), `allOf` of 50 × 9 properties
 * (500 entries) took 0.9 s, 100 × 9 took 1.8 s, 800 × 1 took 6.7 s, 200 × 9 compiled code that
 * refused a valid value and 10 × 199 overflowed the stack.
 */
export const MAX_UNEVALUATED_ENTRIES = 500;

/**
 * Deepest a schema may nest, in subschema levels on a path from its root (`properties`, `items`,
 * `allOf` entries, ...), each `$ref` followed counting 2 (a reference back to a schema already on
 * the path, recursion bounded by the value's depth, is not followed): ajv compiles nested
 * subschemas and reference targets recursively. Measured with 3,000 frames of a caller above, the
 * compile overflowed the stack past about 225 nested `items`, 175 chained `$ref`s, or 95 levels
 * of `items` each reached by a `$ref` (without this limit a typed but unexplained compile failure).
 */
export const MAX_SCHEMA_DEPTH = 100;

/**
 * Refuses a subschema ajv applies (reached through subschema keywords or a `$ref`, never data
 * under an annotation such as `x-ui` or OpenAPI's `example`) that names a `format` tiny does not
 * enforce, or uses `$dynamicRef`/`$dynamicAnchor`.
 * @throws {SchemaCompileFailure} with `format` or `unsupportedKeyword` set.
 */
function checkKeywords(record: Record<string, unknown>, ajv: Ajv, mode: UnknownFormats): void {
  // ajv 8 resolves `$dynamicRef` against the root schema, not the dynamic scope (a `$dynamicRef:
  // '#items'` checked values against the root; plain Ajv2020 does the same): refused, never half enforced.
  for (const keyword of ['$dynamicRef', '$dynamicAnchor'] as const)
    if (Object.hasOwn(record, keyword))
      throw new SchemaCompileFailure(
        `\`${keyword}\` is not supported: ajv cannot resolve it exactly; use \`$ref\` (and \`$anchor\`)`,
        { unsupportedKeyword: keyword },
      );
  // A format beside a `pattern` names what the pattern checks (Zod 4 writes `format: 'cuid'`
  // with the regular expression it enforces): the pattern is enforced, so nothing passes unchecked.
  // With `unknownFormats: 'annotate'` an unknown format is an annotation (ajv, not strict, skips it).
  if (
    mode === 'refuse' &&
    typeof record.format === 'string' &&
    ajv.formats[record.format] === undefined &&
    typeof record.pattern !== 'string'
  )
    throw new SchemaCompileFailure(
      `unknown format "${record.format}": tiny enforces every format it accepts (${Object.keys(ajv.formats).join(', ')}), and any other only beside a \`pattern\` that checks it, or as an unchecked annotation with the option \`unknownFormats: 'annotate'\``,
      { format: record.format },
    );
}

/** Entries an `unevaluated*` keyword tracks in one subschema (see {@link MAX_UNEVALUATED_ENTRIES}). */
function ownEntries(record: Record<string, unknown>): number {
  let total = 0;
  for (const keyword of entryKeywords) {
    if (!Object.hasOwn(record, keyword)) continue;
    const value = record[keyword];
    if (typeof value === 'object' && value !== null)
      total += Array.isArray(value) ? value.length : Object.keys(value).length;
  }
  return total;
}

/**
 * Refuses a schema whose `unevaluated*` keywords would each track more than
 * {@link MAX_UNEVALUATED_ENTRIES} entries (or apply more than twice as many subschemas in place),
 * following `$ref`s (memoised per target; a cycle counted once), or that nests deeper than
 * {@link MAX_SCHEMA_DEPTH}. Iterative; run after {@link checkShape}, so the schema
 * has no cycle of objects and is within the size limits.
 * @throws {SchemaCompileFailure} with `limit: 'maxUnevaluatedEntries'` or `'maxSchemaDepth'`.
 */
function checkGraph(root: JsonSchema, ajv: Ajv, mode: UnknownFormats): void {
  const graph = schemaGraph(root);
  for (const node of graph.edges.keys()) checkKeywords(node as Record<string, unknown>, ajv, mode);
  const depth = schemaDepth(root, graph);
  if (depth > MAX_SCHEMA_DEPTH)
    throw new SchemaCompileFailure(
      `the schema nests ${depth} levels deep (each $ref followed counts 2), more than ${MAX_SCHEMA_DEPTH} (limit maxSchemaDepth): the validator would overflow the call stack; flatten the schema or its $ref chain`,
      { limit: 'maxSchemaDepth' },
    );
  if (!usesUnevaluated(root)) return;
  const load = unevaluatedLoad(graph, ownEntries, MAX_UNEVALUATED_ENTRIES, 2 * MAX_UNEVALUATED_ENTRIES);
  if (load !== undefined)
    throw new SchemaCompileFailure(
      `an unevaluatedProperties/unevaluatedItems keyword tracks ${load.entries} subschema entries over ${load.visits} subschemas (its schema's and those applied in place: allOf/anyOf/oneOf/not/if/then/else/dependentSchemas/$ref), more than ${MAX_UNEVALUATED_ENTRIES} entries or ${2 * MAX_UNEVALUATED_ENTRIES} subschemas (limit maxUnevaluatedEntries): use additionalProperties, or split the schema`,
      { limit: 'maxUnevaluatedEntries' },
    );
}

/** One object being walked by {@link checkShape}. */
interface ShapeFrame {
  readonly node: object;
  readonly isSchema: boolean;
  /** Whether it is in a position ajv applies (not data under an annotation such as `x-ui` or `example`). */
  readonly applied: boolean;
  readonly children: [unknown, boolean, boolean][];
  next: number;
  /** 1 plus the node's entries for a schema node, else 0: what it adds to every path through it. */
  readonly own: number;
  /** Schema nodes in it and below, as JSON text would spell them (a shared object counts per parent). */
  nodes: number;
  /** The most a path below it adds up to. */
  below: number;
}

/**
 * Refuses a schema past {@link MAX_SCHEMA_NODES} or {@link MAX_SUBSCHEMA_ENTRIES} (formats and
 * unsupported keywords are checked by {@link checkKeywords}). Sizes are those of the schema as JSON (ajv compiles an
 * object shared by two parents twice); walked post-order with an explicit stack and memoised per
 * object, so neither a deep nor a widely shared schema costs more than its objects.
 * @throws {SchemaCompileFailure} with `limit` set.
 */
function checkShape(root: JsonSchema): void {
  // Finished objects ([schema nodes, longest path]) by position: [schema, map] applied, then
  // [schema, map] under an annotation (`x-ui`, `example`: data, counted but not checked).
  const finished = [
    new Map<object, [number, number]>(),
    new Map<object, [number, number]>(),
    new Map<object, [number, number]>(),
    new Map<object, [number, number]>(),
  ] as const;
  const slot = (isSchema: boolean, applied: boolean): 0 | 1 | 2 | 3 =>
    ((isSchema ? 0 : 1) + (applied ? 0 : 2)) as 0 | 1 | 2 | 3;
  const active = new Set<object>();
  const frames: ShapeFrame[] = [];
  const open = (node: object, isSchema: boolean, applied: boolean): void => {
    const children: [unknown, boolean, boolean][] = [];
    let entries = 0;
    const own = isSchema && !Array.isArray(node);
    if (Array.isArray(node)) for (const item of node) children.push([item, isSchema, applied]);
    else {
      const record = node as Record<string, unknown>;
      for (const [key, value] of Object.entries(record)) {
        if (isSchema && dataKeywords.has(key)) continue;
        // Only subschema keywords hold schemas ajv applies; what is under any other keyword (`x-ui`,
        // OpenAPI's `example`) is data: counted toward the size limits, never checked as a schema.
        children.push([
          value,
          isSchema ? !shapeMaps.has(key) : true,
          applied && (!isSchema || isSubschemaKeyword(key)),
        ]);
      }
      if (own) {
        // ajv skips a `__proto__` entry of draft-07 `dependencies` (it guards its generated code):
        // the schema would be checked without it, so it is refused rather than half enforced. (The
        // compiled copy enforces `properties`/`patternProperties` ones: see branch-budget.ts.)
        for (const keyword of applied ? protoSkippingMaps : []) {
          const map = record[keyword];
          if (typeof map === 'object' && map !== null && Object.hasOwn(map, '__proto__'))
            throw new SchemaCompileFailure(
              `\`${keyword}\` has an entry "__proto__", which the validator cannot enforce: rename the property`,
            );
        }
        for (const keyword of entryKeywords) {
          const value = record[keyword];
          if (typeof value === 'object' && value !== null)
            entries += Array.isArray(value) ? value.length : Object.keys(value).length;
        }
      }
    }
    active.add(node);
    frames.push({
      node,
      isSchema,
      applied,
      children,
      next: 0,
      own: own ? 1 + entries : 0,
      nodes: own ? 1 : 0,
      below: 0,
    });
  };
  const add = (frame: ShapeFrame, [nodes, path]: [number, number]): void => {
    frame.nodes += nodes;
    frame.below = Math.max(frame.below, path);
    if (frame.nodes > MAX_SCHEMA_NODES)
      throw new SchemaCompileFailure(
        `the schema has more than ${MAX_SCHEMA_NODES} subschemas (limit maxSchemaNodes; an object used twice counts twice): split the tool or simplify its parameters`,
        { limit: 'maxSchemaNodes' },
      );
    if (frame.own + frame.below > MAX_SUBSCHEMA_ENTRIES)
      throw new SchemaCompileFailure(
        `the schema nests ${frame.own + frame.below} subschema entries (properties, allOf/anyOf/oneOf/prefixItems entries, patternProperties) on one path, more than ${MAX_SUBSCHEMA_ENTRIES} (limit maxSubschemaEntries)`,
        { limit: 'maxSubschemaEntries' },
      );
  };
  open(root, true, true);
  add(frames[0] as ShapeFrame, [0, 0]);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as ShapeFrame;
    if (frame.next < frame.children.length) {
      const [child, isSchema, applied] = frame.children[frame.next] as [unknown, boolean, boolean];
      frame.next += 1;
      if (typeof child !== 'object' || child === null) continue;
      const known = finished[slot(isSchema, applied)].get(child);
      if (known !== undefined) add(frame, known);
      else if (active.has(child))
        throw new SchemaCompileFailure('the schema object contains itself (a cycle is not JSON)');
      else open(child, isSchema, applied);
      continue;
    }
    frames.pop();
    active.delete(frame.node);
    const totals: [number, number] = [frame.nodes, frame.own + frame.below];
    finished[slot(frame.isSchema, frame.applied)].set(frame.node, totals);
    const parent = frames[frames.length - 1];
    if (parent !== undefined) add(parent, totals);
  }
}

/** Keywords whose value maps names (or patterns) to schemas: the map itself is not a schema. */
const shapeMaps = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
