import type { JsonSchema } from '@tiny/tools';
import { isRecord, setOwn } from './map-subschemas.js';
import {
  allowsNull,
  arrayItemSchema,
  chooseObjectVariant,
  derefSchema,
  type ObjectVariant,
  objectVariants,
  propertySchema,
} from './schema-shape.js';

const maxDepth = 256;

/**
 * Maps a value of the declared schema to the value {@link toStrictSchema}'s schema expects: every
 * declared property that is missing is filled with `null`, recursively through objects and
 * arrays. Object branches of `anyOf`/`oneOf` are matched by their property names. Pure.
 */
export function toStrictValue(value: unknown, declared: JsonSchema): unknown {
  return walk(
    value,
    declared,
    declared,
    0,
    (variant, source, out) => {
      for (const name of Object.keys(variant.properties)) {
        if (!Object.hasOwn(source, name)) setOwn(out, name, null);
      }
    },
    () => false,
  );
}

/**
 * Maps a value produced under {@link toStrictSchema} back to the declared schema: a `null` for a
 * property that the declared schema lists as optional and that does not admit `null` is removed,
 * recursively through objects and arrays. Every other value is kept.
 *
 * A property that is optional *and* admits `null` cannot tell "left out" from `null` in strict
 * mode; its `null` is kept (it is valid for the declared schema). Pure: the input is not changed.
 */
export function fromStrictValue(value: unknown, declared: JsonSchema): unknown {
  return walk(
    value,
    declared,
    declared,
    0,
    () => {},
    (variant, name, entry) =>
      entry === null &&
      Object.hasOwn(variant.properties, name) &&
      !variant.required.has(name) &&
      !allowsNull(variant.properties[name], declared),
  );
}

function walk(
  value: unknown,
  schema: unknown,
  root: unknown,
  depth: number,
  fill: (variant: ObjectVariant, source: Record<string, unknown>, out: Record<string, unknown>) => void,
  drop: (variant: ObjectVariant, name: string, entry: unknown) => boolean,
): unknown {
  if (depth > maxDepth) return value;
  const node = derefSchema(schema, root);
  if (Array.isArray(value)) {
    return value.map((entry, index) => walk(entry, arrayItemSchema(node, root, index), root, depth + 1, fill, drop));
  }
  if (!isRecord(value)) return value;
  const keys = Object.keys(value);
  const variants = objectVariants(node, root);
  const variant =
    chooseObjectVariant(variants, keys, true) ??
    chooseObjectVariant(
      variants,
      keys.filter((key) => value[key] !== null),
      true,
    ) ??
    chooseObjectVariant(variants, keys) ??
    variants[0];
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const entry = value[key];
    if (variant && drop(variant, key, entry)) continue;
    const entrySchema = variant ? (propertySchema(variant, key) ?? true) : true;
    setOwn(out, key, walk(entry, entrySchema, root, depth + 1, fill, drop));
  }
  if (variant) fill(variant, value, out);
  return out;
}
