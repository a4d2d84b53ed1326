import { applySchemaTransform, cleanSchema, type ModelProfile, type ToolSchema } from '@tiny/llm';
import { GoogleSchemaError } from '../errors/google-schema-error.js';

/** A JSON Schema as this adapter handles it. @internal */
export type Schema = ToolSchema['parameters'];

/**
 * How schemas are sent: `json-schema` (the default) as JSON Schema in `parametersJsonSchema` and
 * `responseJsonSchema`; `openapi` in the older `parameters` and `responseSchema` fields, which take
 * only Gemini's OpenAPI 3.0 subset (for API versions and Vertex models without the JSON Schema fields).
 */
export type GoogleSchemaMode = 'json-schema' | 'openapi';

/** Keywords Gemini's OpenAPI `Schema` object holds (the Gemini API `Schema` reference). */
const OPENAPI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** Annotations that say nothing a value must satisfy: left out of the OpenAPI form. */
const DROPPED_ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'examples', 'readOnly', 'writeOnly', 'deprecated']);

/** The profile's transform (when it has one). */
function transform(schema: Schema, profile: ModelProfile): Schema {
  return profile.schemaTransform === undefined ? schema : applySchemaTransform(schema, profile.schemaTransform);
}

/** The value a local `$ref` (`#`, `#/$defs/a~1b`) points at in `root`; `undefined` when it points at nothing. */
function resolveLocal(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Checks every `$ref` before references are inlined: OpenAPI's subset holds no reference, so each
 * must be local, point at a schema, and not lead back to itself (a recursive schema has no finite
 * inlined form). Inlining would otherwise send `{}` (any value) in its place.
 *
 * @throws {GoogleSchemaError} naming `$ref` and where it stands, for an external, dangling or recursive reference.
 */
function checkRefs(root: unknown, owner: string): void {
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: unknown, path: string): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${path}/${index}`);
      return;
    }
    const record = node as Record<string, unknown>;
    if (Object.hasOwn(record, '$ref')) {
      const ref = record.$ref;
      const refuse = (why: string) =>
        new GoogleSchemaError({ keyword: `$ref (${why})`, path: pointer(path, '$ref'), owner });
      if (typeof ref !== 'string') throw refuse('not a string');
      const target = resolveLocal(root, ref);
      if (!ref.startsWith('#')) throw refuse(`external: ${ref}`);
      if (target === undefined) throw refuse(`points at nothing: ${ref}`);
      const seen = state.get(ref);
      if (seen === 'open') throw refuse(`recursive: ${ref}`);
      if (seen === undefined) {
        state.set(ref, 'open');
        visit(target, ref.slice(1));
        state.set(ref, 'done');
      }
    }
    for (const [key, value] of Object.entries(record)) if (key !== '$ref') visit(value, pointer(path, key));
  };
  visit(root, '');
}

/** Keywords whose value maps names to schemas (the map itself is no schema). */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas']);
/** Keywords whose value is data, not schemas: never walked. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords beside a `$ref` that may replace the target's own (they say nothing a value must satisfy). */
const REF_ANNOTATIONS = new Set([
  'description',
  'title',
  '$comment',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/**
 * Walks every subschema of `root` (not data, not the name maps themselves), calling `check` on each.
 */
function eachSchema(root: unknown, check: (node: Record<string, unknown>, path: string) => void): void {
  const visit = (node: unknown, path: string, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 128) return;
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) visit(item, `${path}/${index}`, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    check(record, path);
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key)) continue;
      const at = pointer(path, key);
      if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        for (const [name, schema] of Object.entries(value)) visit(schema, pointer(at, name), depth + 1);
      } else visit(value, at, depth + 1);
    }
  };
  visit(root, '', 0);
}

/**
 * Checks what inlining a reference would loosen: a keyword beside a `$ref` that the schema it
 * points at also sets to another value (`{$ref: short (maxLength 3), maxLength: 10}`); the
 * inlined form would keep only one of them. Annotations (`description`, `title`, ...) may differ.
 * In `openapi` mode a `oneOf` anywhere is refused too (its exactly-one meaning has no form there).
 *
 * @throws {GoogleSchemaError} naming the keyword and where it stands.
 */
function checkLoosening(root: unknown, mode: GoogleSchemaMode, owner: string): void {
  eachSchema(root, (record, path) => {
    if (mode === 'openapi' && Object.hasOwn(record, 'oneOf'))
      throw new GoogleSchemaError({ keyword: 'oneOf', path, owner });
    if (typeof record.$ref !== 'string') return;
    const target = resolveLocal(root, record.$ref);
    if (typeof target !== 'object' || target === null || Array.isArray(target)) return;
    for (const [key, value] of Object.entries(record)) {
      if (key === '$ref' || REF_ANNOTATIONS.has(key) || !Object.hasOwn(target, key)) continue;
      if (JSON.stringify((target as Record<string, unknown>)[key]) !== JSON.stringify(value))
        throw new GoogleSchemaError({
          keyword: `$ref (${key} both beside the reference and in ${record.$ref})`,
          path: pointer(path, key),
          owner,
        });
    }
  });
}

/** `{type: 'null'}` (with annotations only): a branch Gemini expresses as `nullable: true`. */
function isNullSchema(branch: unknown): boolean {
  if (typeof branch !== 'object' || branch === null) return false;
  const record = branch as Record<string, unknown>;
  return (
    record.type === 'null' &&
    Object.keys(record).every((key) => key === 'type' || key === 'description' || key === 'title')
  );
}

function pointer(path: string, key: string): string {
  return `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * One subschema in the OpenAPI subset: a `type` list with `null` becomes the type and
 * `nullable: true`, as does an `anyOf` with a `{type: 'null'}` branch (one branch left is merged in), `additionalProperties: false` is left out (the harness validates arguments
 * against the full schema, so an extra property is refused there), annotations go; every other
 * keyword outside the subset throws.
 */
function toOpenApi(node: unknown, path: string, owner: string): unknown {
  if (node === true) return {};
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    throw new GoogleSchemaError({ keyword: node === false ? 'false' : typeof node, path, owner });
  const out: Record<string, unknown> = {};
  /** The one non-null `anyOf` branch, merged in after the node's own keywords. */
  let merged: { value: Record<string, unknown>; at: string } | undefined;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (DROPPED_ANNOTATIONS.has(key)) continue;
    if (key === 'additionalProperties' && value === false) continue;
    if (!OPENAPI_KEYWORDS.has(key)) throw new GoogleSchemaError({ keyword: key, path, owner });
    const at = pointer(path, key);
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((type) => type !== 'null');
      if (types.length !== 1) throw new GoogleSchemaError({ keyword: 'type', path: at, owner });
      out.type = types[0];
      if (types.length !== value.length) out.nullable = true;
    } else if (key === 'properties') {
      const properties: Record<string, unknown> = {};
      // defined, not assigned: a property named `__proto__` is a property like any other
      for (const [name, schema] of Object.entries((value ?? {}) as Record<string, unknown>))
        Object.defineProperty(properties, name, {
          value: toOpenApi(schema, pointer(at, name), owner),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      out.properties = properties;
    } else if (key === 'items') {
      out.items = toOpenApi(value, at, owner);
    } else if (key === 'anyOf') {
      if (!Array.isArray(value)) throw new GoogleSchemaError({ keyword: key, path: at, owner });
      const branches = value.filter((branch) => !isNullSchema(branch));
      if (branches.length !== value.length) out.nullable = true;
      const converted = branches.map((branch, index) => toOpenApi(branch, `${at}/${index}`, owner));
      if (converted.length === 1) merged = { value: converted[0] as Record<string, unknown>, at };
      else if (converted.length > 1) out.anyOf = converted;
    } else if (key === 'type' && value === 'null') {
      throw new GoogleSchemaError({ keyword: 'type: "null"', path: at, owner });
    } else {
      out[key] = value;
    }
  }
  if (merged !== undefined)
    for (const [key, value] of Object.entries(merged.value)) {
      // both the node and its branch constrain one keyword (a parent's `minLength` beside the
      // branch's): one would be lost, so neither is sent
      if (Object.hasOwn(out, key) && JSON.stringify(out[key]) !== JSON.stringify(value))
        throw new GoogleSchemaError({
          keyword: `anyOf (${key} on both the schema and its branch)`,
          path: merged.at,
          owner,
        });
      out[key] = value;
    }
  return out;
}

/**
 * The schema as sent, and the field it goes in: the model-facing schema (after the profile's
 * transform) with local references inlined, as JSON Schema; or, in `openapi` mode, converted to
 * the OpenAPI subset.
 *
 * @throws {GoogleSchemaError} in `openapi` mode, for a keyword the subset cannot express, naming
 *   it, where it stands and `owner` (the tool, or `responseFormat`): also an external, dangling
 *   or recursive `$ref`, an `anyOf` whose one branch sets a keyword the schema beside it sets
 *   to another value, and any `oneOf`. In both modes, for a keyword beside a `$ref` that the
 *   schema it points at sets to another value (inlining would keep only one).
 * @internal
 */
export function toGeminiSchema(schema: Schema, profile: ModelProfile, mode: GoogleSchemaMode, owner: string): unknown {
  const transformed = transform(schema, profile);
  if (mode === 'openapi') checkRefs(transformed, owner);
  checkLoosening(transformed, mode, owner);
  // local references inlined and `const` made a one-value `enum`
  const projected = cleanSchema(transformed, 'anthropic');
  return mode === 'openapi' ? toOpenApi(projected, '', owner) : projected;
}
