import { isRecord } from './map-subschemas.js';
import { resolveLocalRef } from './resolve-local-ref.js';

/** A JSON Schema type name. `integer` is separate from `number`. @internal */
export type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

const typeNames: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);
const maxRefHops = 32;

/**
 * Follows `$ref` chains (local only) until a schema without one, merging sibling keywords over the
 * target. Boolean schemas pass through; `undefined`, a reference that leads nowhere, a non-local
 * reference or a chain longer than 32 hops give `true` (anything).
 *
 * @internal
 */
export function derefSchema(schema: unknown, root: unknown): unknown {
  let node = schema;
  for (let hop = 0; hop < maxRefHops; hop++) {
    if (node === undefined) return true;
    if (!isRecord(node) || typeof node.$ref !== 'string') return node;
    const { $ref, ...siblings } = node;
    const target = resolveLocalRef(root, $ref);
    if (target === undefined || target === true) return Object.keys(siblings).length === 0 ? true : siblings;
    if (target === false) return false;
    node = isRecord(target) ? { ...target, ...siblings } : siblings;
  }
  return true;
}

function typeOfValue(value: unknown): JsonTypeName {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

/**
 * The JSON types a schema lets through, read from `type`, `enum`, `const`, `anyOf`/`oneOf`
 * branches and, without those, from object or array keywords. `'any'` when the schema says
 * nothing about type (`{}`, `true`, a description only). `allOf` branches narrow: the first one
 * that states types is used.
 *
 * @internal
 */
export function allowedTypes(schema: unknown, root: unknown, depth = 0): ReadonlySet<JsonTypeName> | 'any' {
  const node = derefSchema(schema, root);
  if (node === true || depth > maxRefHops) return 'any';
  if (!isRecord(node)) return new Set();
  const declared = node.type;
  if (typeof declared === 'string' || Array.isArray(declared)) {
    const list = (Array.isArray(declared) ? declared : [declared]).filter(
      (name): name is JsonTypeName => typeof name === 'string' && typeNames.has(name),
    );
    return new Set(list);
  }
  if (Array.isArray(node.enum)) return new Set(node.enum.map(typeOfValue));
  if ('const' in node) return new Set([typeOfValue(node.const)]);
  const branches = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.oneOf) ? node.oneOf : [])];
  if (branches.length > 0) {
    const union = new Set<JsonTypeName>();
    for (const branch of branches) {
      const types = allowedTypes(branch, root, depth + 1);
      if (types === 'any') return 'any';
      for (const type of types) union.add(type);
    }
    return union;
  }
  if (Array.isArray(node.allOf)) {
    for (const branch of node.allOf) {
      const types = allowedTypes(branch, root, depth + 1);
      if (types !== 'any') return types;
    }
  }
  if ('properties' in node || 'required' in node || 'additionalProperties' in node) return new Set(['object']);
  if ('items' in node || 'prefixItems' in node) return new Set(['array']);
  return 'any';
}

/** True when `types` lets `type` through; `number` also admits integers. @internal */
export function admits(types: ReadonlySet<JsonTypeName> | 'any', type: JsonTypeName): boolean {
  if (types === 'any') return true;
  if (types.has(type)) return true;
  return type === 'integer' && types.has('number');
}

/** True when `null` is a valid value for the schema (an untyped schema admits it). @internal */
export function allowsNull(schema: unknown, root: unknown): boolean {
  const node = derefSchema(schema, root);
  if (isRecord(node) && Array.isArray(node.enum)) return node.enum.includes(null);
  if (isRecord(node) && 'const' in node) return node.const === null;
  return admits(allowedTypes(node, root), 'null');
}

/** One way an object may look: its declared properties, required names and extra-key rule. @internal */
export interface ObjectVariant {
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required: ReadonlySet<string>;
  /** `additionalProperties` as written (`undefined` when absent). */
  readonly additional: unknown;
  /** Whether the schema has a `properties` keyword at all. */
  readonly declaresProperties: boolean;
}

/**
 * The object shapes a schema admits: the schema itself when it describes an object, then each
 * `anyOf`/`oneOf` branch that does, in order. `allOf` branches are merged into the shape.
 *
 * @internal
 */
export function objectVariants(schema: unknown, root: unknown, depth = 0): ObjectVariant[] {
  const node = derefSchema(schema, root);
  if (!isRecord(node) || depth > maxRefHops) return [];
  const variants: ObjectVariant[] = [];
  const types = allowedTypes(node, root);
  const own = ownVariant(node, root, depth);
  const branches = [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.oneOf) ? node.oneOf : [])];
  for (const branch of branches) {
    for (const variant of objectVariants(branch, root, depth + 1)) variants.push(merge(own, variant));
  }
  if (variants.length === 0 && (types === 'any' || types.has('object'))) variants.push(own);
  return variants;
}

function ownVariant(node: Record<string, unknown>, root: unknown, depth: number): ObjectVariant {
  let variant: ObjectVariant = {
    properties: isRecord(node.properties) ? node.properties : {},
    required: new Set(Array.isArray(node.required) ? node.required.filter((name) => typeof name === 'string') : []),
    additional: node.additionalProperties,
    declaresProperties: isRecord(node.properties),
  };
  if (Array.isArray(node.allOf)) {
    for (const branch of node.allOf) {
      const [first] = objectVariants(branch, root, depth + 1);
      if (first) variant = merge(variant, first);
    }
  }
  return variant;
}

function merge(left: ObjectVariant, right: ObjectVariant): ObjectVariant {
  if (!left.declaresProperties && left.required.size === 0 && left.additional === undefined) return right;
  return {
    properties: { ...left.properties, ...right.properties },
    required: new Set([...left.required, ...right.required]),
    additional: right.additional === undefined ? left.additional : right.additional,
    declaresProperties: left.declaresProperties || right.declaresProperties,
  };
}

/**
 * The schema of a key in an object variant: the declared property, else an explicit
 * `additionalProperties` (`true` or a schema), else `true` when the variant declares no
 * properties at all. `undefined` for an undeclared key of an object that lists its properties
 * (the same rule as {@link chooseObjectVariant}).
 *
 * @internal
 */
export function propertySchema(variant: ObjectVariant, key: string): unknown {
  if (Object.hasOwn(variant.properties, key)) return variant.properties[key];
  if (variant.additional === true || isRecord(variant.additional)) return variant.additional;
  if (!variant.declaresProperties && variant.additional !== false) return true;
  return undefined;
}

/**
 * Picks the first variant that declares every key in `keys` (or explicitly admits extra keys, or
 * declares no properties at all). With `requireAll`, the variant's required names must also all
 * be present. `undefined` when none fits.
 *
 * @internal
 */
export function chooseObjectVariant(
  variants: readonly ObjectVariant[],
  keys: readonly string[],
  requireAll = false,
): ObjectVariant | undefined {
  const present = new Set(keys);
  return variants.find((variant) => {
    const extraAllowed = !variant.declaresProperties || variant.additional === true || isRecord(variant.additional);
    if (!keys.every((key) => Object.hasOwn(variant.properties, key) || extraAllowed)) return false;
    return !requireAll || [...variant.required].every((name) => present.has(name));
  });
}

/** The schema of entry `index` of an array: `prefixItems[index]`, tuple `items[index]`, `items`, else `true`. @internal */
export function arrayItemSchema(schema: unknown, root: unknown, index: number): unknown {
  const node = derefSchema(schema, root);
  if (!isRecord(node)) return true;
  const candidates = [
    node,
    ...(Array.isArray(node.anyOf) ? node.anyOf : []),
    ...(Array.isArray(node.oneOf) ? node.oneOf : []),
  ];
  for (const candidate of candidates) {
    const branch = derefSchema(candidate, root);
    if (!isRecord(branch)) continue;
    const types = allowedTypes(branch, root);
    if (types !== 'any' && !types.has('array')) continue;
    if (Array.isArray(branch.prefixItems) && index < branch.prefixItems.length) return branch.prefixItems[index];
    if (Array.isArray(branch.items))
      return index < branch.items.length ? branch.items[index] : (branch.additionalItems ?? true);
    if (branch.items !== undefined) return branch.items;
    if (branch !== node || types !== 'any') return true;
  }
  return true;
}
