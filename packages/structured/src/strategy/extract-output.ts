import {
  type AnswerCoercion,
  findNonFiniteNumber,
  fromStrictValue,
  parseLenientJson,
  parseWithSchema,
} from '@tiny/llm';
import { formatValidationIssues, type ValidationIssue, validateSchemaValue } from '@tiny/tools';
import type { StructuredErrorKind, StructuredRepair } from '../run/structured-attempt.js';
import type { OutputPlan, OutputTarget } from './output-plan.js';

/** What one answer yielded: a value, or why not. @internal */
export type Extraction =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly repair: StructuredRepair;
      /** The repairs of a schema-guided recovery (`repair: 'schema'`); empty otherwise. */
      readonly repairs: readonly string[];
      readonly variant: string | undefined;
    }
  | {
      readonly ok: false;
      readonly kind: StructuredErrorKind;
      readonly error: string;
      readonly issues?: readonly ValidationIssue[] | undefined;
      /** The model's refusal, for `refused`. */
      readonly refusal?: string | undefined;
    };

/** The `refused` failure for a response that carries a refusal, else `undefined`. @internal */
export function refusedExtraction(plan: OutputPlan, refusal: string | undefined): Extraction | undefined {
  if (refusal === undefined || refusal.trim() === '') return undefined;
  return {
    ok: false,
    kind: 'refused',
    error: `The model refused to write the \`${plan.schemaName}\` output: ${refusal}`,
    refusal,
  };
}

/** How a text answer is read: `schemaRecovery` tries {@link parseWithSchema} before failing. @internal */
export interface DecodeOptions {
  readonly schemaRecovery: boolean;
  /**
   * Cross-type coercion of the recovery (`parseWithSchema`'s `coerce`): `off` (default) leaves a
   * value of the wrong type to the retry budget as a validation failure.
   */
  readonly coerce?: AnswerCoercion | undefined;
}

/**
 * Reads a value for `target` from text (lenient ladder) or from decoded arguments, validated by
 * ajv then (for a Standard Schema format) by the library, whose output is the value. A text
 * answer that fails to parse or validate is given to `parseWithSchema` (when `schemaRecovery`);
 * a value it recovers goes through the same checks and is recorded as repair `schema`.
 * Arguments of a call (tool strategy) are never recovered that way. @internal
 */
export function decodeForTarget(
  plan: OutputPlan,
  target: OutputTarget,
  source: { readonly text: string } | { readonly value: unknown },
  options: DecodeOptions = { schemaRecovery: false },
): Extraction | Promise<Extraction> {
  let first: Extraction | Promise<Extraction>;
  let parsed: ReturnType<typeof parseLenientJson>;
  if ('text' in source) {
    parsed = parseLenientJson(source.text);
    // The lossy close is not checked here when the schema-guided reader comes first (below).
    const deferClose = options.schemaRecovery && parsed?.repair === 'closed';
    first =
      parsed === undefined || deferClose
        ? {
            ok: false,
            kind: 'parse',
            error: `The output for \`${plan.schemaName}\` is not valid JSON and no conservative repair recovered it.`,
          }
        : checkValue(plan, target, parsed.value, parsed.repair, []);
  } else {
    return checkValue(plan, target, source.value, 'strict', []);
  }
  if (!options.schemaRecovery) return first;
  const text = source.text;
  const recover = (failed: Extraction): Extraction | Promise<Extraction> => {
    const recovered = parseWithSchema(text, target.recoverySchema, { coerce: options.coerce ?? 'off' });
    if (recovered === undefined) return failed;
    const checked = checkValue(plan, target, recovered.value, 'schema', recovered.repairs);
    const settle = (extraction: Extraction): Extraction => (extraction.ok ? extraction : failed);
    return checked instanceof Promise ? checked.then(settle) : settle(checked);
  };
  // The ladder's `closed` rung drops the cut tail it cannot close (`{name: Ada` → `{}`): it is not
  // trusted before the schema-guided reader, which tries the same ladder with that rung last (its
  // value then carries `closed_truncated`) and keeps what the answer wrote. A lossy close that
  // the reader does not accept is a parse failure, for the retry budget.
  if (parsed?.repair === 'closed') {
    return recover({
      ok: false,
      kind: 'parse',
      error: `The output for \`${plan.schemaName}\` is cut off, and no repair recovered it without losing content.`,
    });
  }
  const retry = (checked: Extraction) => (checked.ok ? checked : recover(checked));
  return first instanceof Promise ? first.then(retry) : retry(first);
}

/** The checks every decoded value goes through: strict nulls, unwrapping, ajv, the library. */
function checkValue(
  plan: OutputPlan,
  target: OutputTarget,
  decoded: unknown,
  repair: StructuredRepair,
  repairs: readonly string[],
): Extraction | Promise<Extraction> {
  let value = decoded;
  if (target.strict) value = fromStrictValue(value, target.wireDeclared);
  if (target.wrapped && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, 'value') && Object.keys(record).length === 1) value = record.value;
  }
  // `1e999` parses as Infinity, which JSON Schema's `integer` and `number` accept: refused here.
  const nonFinite = findNonFiniteNumber(value);
  if (nonFinite !== undefined) {
    return invalid(plan, [
      { path: nonFinite === '/' ? '' : nonFinite, keyword: 'type', message: 'must be a finite number' },
    ]);
  }
  const result = target.validator.validate(value);
  if (!result.ok) return invalid(plan, result.issues);
  const variant = target.variant ?? plan.variants.find((entry) => entry.validator.validate(value).ok)?.name;
  if (plan.standard === undefined) return { ok: true, value, repair, repairs, variant };
  // The gate passed; the library's own checks (refinements, transforms, defaults) come second.
  const library = validateSchemaValue({ jsonSchema: alreadyChecked, standard: plan.standard, vendor: '' }, value);
  const settle = (checked: Awaited<typeof library>): Extraction =>
    checked.ok ? { ok: true, value: checked.value, repair, repairs, variant } : invalid(plan, checked.issues);
  return library instanceof Promise ? library.then(settle) : settle(library);
}

/** ajv already checked the value against the target's schema: the library step gets an empty gate. */
const alreadyChecked = {};

function invalid(plan: OutputPlan, issues: readonly ValidationIssue[]): Extraction {
  return {
    ok: false,
    kind: 'validation',
    error: `The output for \`${plan.schemaName}\` does not match its schema: ${formatValidationIssues(issues)}`,
    issues,
  };
}

/**
 * Reads the answer of a text strategy (provider or prompted) from the response text. Empty text is
 * `output_limit` when the model stopped at its token limit, else `missing`. @internal
 */
export function extractFromText(
  plan: OutputPlan,
  text: string,
  finishReason: string,
  options: DecodeOptions = { schemaRecovery: true },
): Extraction | Promise<Extraction> {
  if (text.trim() === '') {
    if (finishReason === 'length') {
      return {
        ok: false,
        kind: 'output_limit',
        error: `The model hit its output limit before writing the \`${plan.schemaName}\` output (finish_reason=length); raise maxTokens or cap reasoning.`,
      };
    }
    return {
      ok: false,
      kind: 'missing',
      error: `The model returned no content for \`${plan.schemaName}\` (finish_reason=${finishReason}). Answer with the JSON value.`,
    };
  }
  return decodeForTarget(plan, plan.targets[0] as OutputTarget, { text }, options);
}

/** Reads an output-tool call's arguments: decoded ones as they are, a raw string through the ladder. @internal */
export function extractFromCall(
  plan: OutputPlan,
  target: OutputTarget,
  call: {
    readonly name?: string | undefined;
    readonly arguments: unknown;
    readonly invalid?: string | undefined;
    readonly refused?: true | undefined;
  },
): Extraction | Promise<Extraction> {
  // A call the adapter refused (a spliced or broken turn) is never read, however well its text parses.
  if (call.refused === true) {
    return {
      ok: false,
      kind: 'parse',
      error: `The provider's answer was broken, so the \`${call.name ?? target.toolName}\` call was not read (${call.invalid ?? 'refused'}). Call it again with the final answer.`,
    };
  }
  if (call.invalid !== undefined || typeof call.arguments === 'string') {
    const text = typeof call.arguments === 'string' ? call.arguments : '';
    // An empty argument string means "no arguments".
    if (text.trim() === '') return decodeForTarget(plan, target, { value: {} });
    return decodeForTarget(plan, target, { text });
  }
  return decodeForTarget(plan, target, { value: call.arguments ?? {} });
}
