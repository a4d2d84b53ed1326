import { createValidator, type JsonSchema, type Validator } from '@tiny/tools';
import { isPlainObject } from '../repair/is-plain-object.js';
import { AnswerRepairs, pointerSegment } from './answer-repairs.js';
import {
  answerTypes,
  declaresProperty,
  itemSchema,
  propertySchema,
  resolveAnswerSchema,
  unionMembers,
} from './answer-schema.js';

/** Nesting beyond which values are left as they are (a self-referencing schema). */
const MAX_DEPTH = 128;

const numberText = /^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;
const groupedNumberText = /^[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?$/;

/** Validators of union members, each compiled with the root's definitions so `#/$defs/...` resolves. */
const memberValidators = new WeakMap<object, WeakMap<object, Validator>>();

function memberValidator(root: JsonSchema, member: JsonSchema): Validator {
  let byMember = memberValidators.get(root);
  if (byMember === undefined) {
    byMember = new WeakMap();
    memberValidators.set(root, byMember);
  }
  let validator = byMember.get(member);
  if (validator === undefined) {
    const definitions = {
      ...(isPlainObject(root.$defs) ? { $defs: root.$defs } : {}),
      ...(isPlainObject(root.definitions) ? { definitions: root.definitions } : {}),
    };
    const { $id: _id, ...rest } = member;
    validator = createValidator({ ...definitions, ...rest });
    byMember.set(member, validator);
  }
  return validator;
}

function parseNumberText(text: string, integer: boolean): number | undefined {
  let trimmed = text.trim();
  if (groupedNumberText.test(trimmed)) trimmed = trimmed.replaceAll(',', '');
  if (!numberText.test(trimmed)) return undefined;
  const number = Number(trimmed);
  if (!Number.isFinite(number) || (integer && !Number.isInteger(number))) return undefined;
  return number;
}

function matchesTypes(value: unknown, types: readonly string[]): boolean {
  if (value === null) return types.includes('null');
  if (Array.isArray(value)) return types.includes('array');
  switch (typeof value) {
    case 'number':
      return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
    case 'object':
      return types.includes('object');
    default:
      return types.includes(typeof value);
  }
}

/**
 * How far a parsed answer is fitted to its schema: `off` (the default of `parseWithSchema`) keeps
 * only the repairs that preserve meaning (enum case, undeclared keys dropped under
 * `additionalProperties: false`, the union member the value already matches); `lenient` also
 * converts across types (numeric and boolean strings, numbers to strings, digit grouping, `"null"`,
 * one value wrapped into a one-item array and back).
 */
export type AnswerCoercion = 'off' | 'lenient';

/** What fitting one value node to one schema node gave: the value and the repairs it took. */
interface Fitted {
  readonly value: unknown;
  readonly repairs: AnswerRepairs;
}

interface Coercion {
  readonly root: JsonSchema;
  readonly repairs: AnswerRepairs;
  readonly policy: AnswerCoercion;
  /**
   * Per schema node, per object or array of the answer: what fitting gave, and whether a union
   * member validates it. A value node sits at one path, so the repairs are the same each time; a
   * recursive union (an expression tree) tries every member at every level, and without this the
   * work doubles with each level.
   */
  readonly fitted: WeakMap<object, WeakMap<object, Fitted>>;
  readonly valid: WeakMap<object, WeakMap<object, boolean>>;
}

function memoFor<T>(table: WeakMap<object, WeakMap<object, T>>, schema: object): WeakMap<object, T> {
  let byValue = table.get(schema);
  if (byValue === undefined) {
    byValue = new WeakMap();
    table.set(schema, byValue);
  }
  return byValue;
}

/** Whether `member` validates `value`, asked once per (member, object or array node). */
function memberAccepts(state: Coercion, member: JsonSchema, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return memberValidator(state.root, member).test(value);
  const known = memoFor(state.valid, member);
  let ok = known.get(value);
  if (ok === undefined) {
    ok = memberValidator(state.root, member).test(value);
    known.set(value, ok);
  }
  return ok;
}

function coerceEnum(value: unknown, allowed: readonly unknown[], path: string, state: Coercion): unknown {
  if (allowed.some((entry) => entry === value)) return value;
  if (typeof value !== 'string') return value;
  const wanted = value.trim().toLowerCase();
  const matches = allowed.filter((entry) => typeof entry === 'string' && entry.toLowerCase() === wanted);
  if (matches.length !== 1) return value;
  state.repairs.add('matched_enum_case', path);
  return matches[0];
}

function coerceScalar(value: unknown, types: readonly string[], path: string, state: Coercion): unknown {
  if (typeof value === 'string') {
    if (types.includes('integer') || types.includes('number')) {
      const number = parseNumberText(value, !types.includes('number'));
      if (number !== undefined) {
        state.repairs.add('coerced_to_number', path);
        return number;
      }
    }
    if (types.includes('boolean')) {
      const lowered = value.trim().toLowerCase();
      if (lowered === 'true' || lowered === 'false') {
        state.repairs.add('coerced_to_boolean', path);
        return lowered === 'true';
      }
    }
    if (types.includes('null') && /^(null|none)$/i.test(value.trim())) {
      state.repairs.add('coerced_to_null', path);
      return null;
    }
  }
  if ((typeof value === 'number' || typeof value === 'boolean') && types.includes('string')) {
    state.repairs.add('coerced_to_string', path);
    return String(value);
  }
  return undefined;
}

function coerceObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  path: string,
  state: Coercion,
  depth: number,
): Record<string, unknown> {
  const closed = schema.additionalProperties === false;
  let result: Record<string, unknown> | undefined;
  const keys = Object.keys(value);
  keys.forEach((key, index) => {
    const childPath = `${path}/${pointerSegment(key)}`;
    if (closed && !declaresProperty(schema, key)) {
      state.repairs.add('dropped_undeclared_key', childPath);
      result ??= copyKeys(value, keys.slice(0, index));
      return;
    }
    const child = value[key];
    const coerced = coerceAt(child, propertySchema(state.root, schema, key), childPath, state, depth + 1);
    if (coerced !== child) result ??= copyKeys(value, keys.slice(0, index));
    if (result !== undefined)
      Object.defineProperty(result, key, { value: coerced, writable: true, enumerable: true, configurable: true });
  });
  return result ?? value;
}

function copyKeys(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(copy, key, { value: value[key], writable: true, enumerable: true, configurable: true });
  }
  return copy;
}

function coerceItems(value: readonly unknown[], schema: JsonSchema, path: string, state: Coercion, depth: number) {
  let result: unknown[] | undefined;
  value.forEach((item, index) => {
    const coerced = coerceAt(item, itemSchema(state.root, schema, index), `${path}/${index}`, state, depth + 1);
    if (coerced === item) return;
    result ??= [...value];
    result[index] = coerced;
  });
  return result ?? value;
}

function coerceUnion(value: unknown, members: readonly JsonSchema[], path: string, state: Coercion, depth: number) {
  for (const member of members) if (memberAccepts(state, member, value)) return value;
  for (const member of members) {
    const trial: Coercion = { ...state, repairs: new AnswerRepairs() };
    const coerced = coerceAt(value, member, path, trial, depth + 1);
    if (coerced !== value && memberAccepts(state, member, coerced)) {
      state.repairs.merge(trial.repairs);
      return coerced;
    }
  }
  return value;
}

function coerceAt(
  value: unknown,
  given: JsonSchema | undefined,
  path: string,
  state: Coercion,
  depth: number,
): unknown {
  const schema = resolveAnswerSchema(state.root, given);
  if (schema === undefined || depth > MAX_DEPTH) return value;
  if (typeof value !== 'object' || value === null) return fitTo(value, schema, path, state, depth);
  const byValue = memoFor(state.fitted, schema);
  const known = byValue.get(value);
  if (known !== undefined) {
    state.repairs.merge(known.repairs);
    return known.value;
  }
  const repairs = new AnswerRepairs();
  const fitted = fitTo(value, schema, path, { ...state, repairs }, depth);
  byValue.set(value, { value: fitted, repairs });
  state.repairs.merge(repairs);
  return fitted;
}

function fitTo(value: unknown, schema: JsonSchema, path: string, state: Coercion, depth: number): unknown {
  const members = unionMembers(state.root, schema);
  if (members !== undefined && schema.type === undefined && schema.properties === undefined) {
    return coerceUnion(value, members, path, state, depth);
  }
  if (Array.isArray(schema.enum)) return coerceEnum(value, schema.enum, path, state);
  if ('const' in schema) return coerceEnum(value, [schema.const], path, state);
  const types = answerTypes(state.root, schema);
  if (types === undefined) return value;
  if (!matchesTypes(value, types)) {
    // The model wrote another type than the schema asks: that is a validation error unless the
    // caller opted into cross-type coercion (a retry is the honest repair).
    if (state.policy !== 'lenient') return value;
    const scalar = coerceScalar(value, types, path, state);
    if (scalar !== undefined) return scalar;
    if (types.includes('array') && value !== null && value !== undefined) {
      state.repairs.add('wrapped_in_array', path);
      return coerceItems([value], schema, path, state, depth);
    }
    if (Array.isArray(value) && value.length === 1) {
      state.repairs.add('unwrapped_single_item', path);
      return coerceAt(value[0], schema, path, state, depth + 1);
    }
    return value;
  }
  if (Array.isArray(value)) return coerceItems(value, schema, path, state, depth);
  if (isPlainObject(value)) return coerceObject(value, schema, path, state, depth);
  return value;
}

/**
 * Fits a parsed answer to `root` where the schema says how. Always: a string enum value matched
 * case-insensitively to its canonical spelling (only when exactly one member matches), the first
 * union member that the fitted value validates against, and, only under
 * `additionalProperties: false`, undeclared keys dropped. With `policy: 'lenient'` also across
 * types: numeric strings to numbers (`"36"`, `"1,234.5"`), `"true"`/`"false"` to booleans, numbers
 * and booleans to strings, one value to a one-item array and a one-item array to its item. Each
 * change goes to `repairs`. Returns `value` itself when nothing changed.
 * @internal
 */
export function coerceAnswer(
  value: unknown,
  root: JsonSchema,
  repairs: AnswerRepairs,
  policy: AnswerCoercion = 'off',
): unknown {
  return coerceAt(value, root, '', { root, repairs, policy, fitted: new WeakMap(), valid: new WeakMap() }, 0);
}
