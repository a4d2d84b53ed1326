import { fromStrictValue, type LenientJsonRepair, parseLenientJson } from '@tiny/llm';
import { formatValidationIssues, type ValidationIssue, validateSchemaValue } from '@tiny/tools';
import type { StructuredErrorKind } from '../run/structured-attempt.js';
import type { OutputPlan, OutputTarget } from './output-plan.js';

/** What one answer yielded: a value, or why not. @internal */
export type Extraction =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly repair: LenientJsonRepair;
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

/**
 * Reads a value for `target` from text (lenient ladder) or from decoded arguments, validated by
 * ajv then (for a Standard Schema format) by the library, whose output is the value. @internal
 */
export function decodeForTarget(
  plan: OutputPlan,
  target: OutputTarget,
  source: { readonly text: string } | { readonly value: unknown },
): Extraction | Promise<Extraction> {
  let value: unknown;
  let repair: LenientJsonRepair = 'strict';
  if ('text' in source) {
    const parsed = parseLenientJson(source.text);
    if (parsed === undefined) {
      return {
        ok: false,
        kind: 'parse',
        error: `The output for \`${plan.schemaName}\` is not valid JSON and no conservative repair recovered it.`,
      };
    }
    value = parsed.value;
    repair = parsed.repair;
  } else {
    value = source.value;
  }
  if (target.strict) value = fromStrictValue(value, target.wireDeclared);
  if (target.wrapped && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Object.hasOwn(record, 'value') && Object.keys(record).length === 1) value = record.value;
  }
  const result = target.validator.validate(value);
  if (!result.ok) return invalid(plan, result.issues);
  const variant = target.variant ?? plan.variants.find((entry) => entry.validator.validate(value).ok)?.name;
  if (plan.standard === undefined) return { ok: true, value, repair, variant };
  // The gate passed; the library's own checks (refinements, transforms, defaults) come second.
  const library = validateSchemaValue({ jsonSchema: alreadyChecked, standard: plan.standard, vendor: '' }, value);
  const settle = (checked: Awaited<typeof library>): Extraction =>
    checked.ok ? { ok: true, value: checked.value, repair, variant } : invalid(plan, checked.issues);
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
  return decodeForTarget(plan, plan.targets[0] as OutputTarget, { text });
}

/** Reads an output-tool call's arguments: decoded ones as they are, a raw string through the ladder. @internal */
export function extractFromCall(
  plan: OutputPlan,
  target: OutputTarget,
  call: { readonly arguments: unknown; readonly invalid?: string | undefined },
): Extraction | Promise<Extraction> {
  if (call.invalid !== undefined || typeof call.arguments === 'string') {
    const text = typeof call.arguments === 'string' ? call.arguments : '';
    // An empty argument string means "no arguments".
    if (text.trim() === '') return decodeForTarget(plan, target, { value: {} });
    return decodeForTarget(plan, target, { text });
  }
  return decodeForTarget(plan, target, { value: call.arguments ?? {} });
}
