import type { ToolSchema } from '@tiny/llm';
import {
  type JsonSchema,
  LIST_SUBSCHEMA_KEYWORDS,
  MAP_SUBSCHEMA_KEYWORDS,
  SINGLE_SUBSCHEMA_KEYWORDS,
  truncateUtf8,
} from '@tiny/tools';

/** Byte ceilings for the model-facing projection of a tool schema. Unset means no ceiling. */
export interface SchemaCompaction {
  /** Largest UTF-8 size of the description, `…` included. */
  readonly maxDescriptionBytes?: number | undefined;
  /** Largest UTF-8 size of the compact JSON of the parameters schema. */
  readonly maxSchemaBytes?: number | undefined;
}

/** Ceilings suggested for third-party (MCP) schemas: 5,000 B of parameters, 1,000 B of description. */
export const THIRD_PARTY_SCHEMA_COMPACTION: SchemaCompaction = Object.freeze({
  maxSchemaBytes: 5000,
  maxDescriptionBytes: 1000,
});

/** The rungs of the compaction ladder, in the order they are tried. */
export type CompactionStep =
  | 'prune_definitions'
  | 'strip_nested_descriptions'
  | 'strip_property_descriptions'
  | 'drop_definitions'
  | 'collapse_deep_objects'
  | 'drop_compositions'
  | 'open_object';

/** Objects nested deeper than this are collapsed by `collapse_deep_objects`. */
export const COLLAPSE_DEPTH = 3;

const utf8 = new TextEncoder();

/** UTF-8 size of the compact JSON of `value`. */
export function jsonBytes(value: unknown): number {
  return utf8.encode(JSON.stringify(value) ?? '').length;
}

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes at a code-point boundary, ending in `…` (whose
 * 3 bytes count). Text that fits is returned unchanged; a budget under 3 bytes gives `''`.
 */
export function clipDescription(text: string, maxBytes: number): string {
  if (utf8.encode(text).length <= maxBytes) return text;
  if (!(maxBytes >= 3)) return '';
  return `${truncateUtf8(text, maxBytes - 3).trimEnd()}…`;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

const mapKeywords = MAP_SUBSCHEMA_KEYWORDS;
const singleKeywords = SINGLE_SUBSCHEMA_KEYWORDS;
const listKeywords = LIST_SUBSCHEMA_KEYWORDS;
const refKeywords = ['$ref', '$dynamicRef', '$recursiveRef'] as const;
const compositions = ['anyOf', 'oneOf', 'allOf'] as const;
const definitionTables = ['$defs', 'definitions'] as const;

/** Where a node sits: its depth (root 0) and whether it is a root-level `properties` entry. */
interface Place {
  readonly depth: number;
  readonly topLevelProperty: boolean;
}

/**
 * Rebuilds a schema bottom-up: `visit` gets each node (children already rebuilt) and its place.
 * Data keywords (`enum`, `const`, `default`, `examples`) are never walked.
 */
function rebuild(node: unknown, visit: (node: Node, place: Place) => unknown, place: Place = root): unknown {
  if (!isNode(node)) return node;
  const out: Node = { ...node };
  const child = (value: unknown, topLevelProperty = false) =>
    rebuild(value, visit, { depth: place.depth + 1, topLevelProperty });
  for (const keyword of mapKeywords) {
    const map = node[keyword];
    if (!isNode(map)) continue;
    const next: Node = {};
    for (const [key, value] of Object.entries(map)) {
      next[key] = child(value, keyword === 'properties' && place.depth === 0);
    }
    out[keyword] = next;
  }
  for (const keyword of singleKeywords) if (isNode(node[keyword])) out[keyword] = child(node[keyword]);
  for (const keyword of listKeywords) {
    const list = node[keyword];
    if (Array.isArray(list)) out[keyword] = list.map((item) => child(item));
  }
  return visit(out, place);
}
const root: Place = { depth: 0, topLevelProperty: false };

function collectRefs(node: unknown, into: string[]): void {
  rebuild(node, (visited) => {
    for (const keyword of refKeywords) {
      const ref = visited[keyword];
      if (typeof ref === 'string') into.push(keyword === '$ref' ? ref : `dynamic:${ref}`);
    }
    return visited;
  });
}

/** Decodes `#/$defs/a~1b/...` to `['$defs', 'a/b']`, or `undefined` for anything else. */
function definitionTarget(ref: string): readonly [string, string] | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)/.exec(ref);
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  let name = match[2];
  try {
    name = decodeURIComponent(name);
  } catch {
    return undefined;
  }
  return [match[1], name.replace(/~1/g, '/').replace(/~0/g, '~')];
}

/** Rung 1: removes root definition entries that no reference can reach. */
function pruneDefinitions(schema: Node): Node {
  const tables = definitionTables.filter((table) => isNode(schema[table]));
  if (tables.length === 0) return schema;
  const body: Node = { ...schema };
  for (const table of tables) delete body[table];
  const pending: string[] = [];
  collectRefs(body, pending);
  const reachable = new Set<string>();
  while (pending.length > 0) {
    const ref = pending.pop() as string;
    if (ref === '#') continue;
    const target = definitionTarget(ref);
    // Anchors, other pointers, remote and dynamic references: too clever to prune safely.
    if (target === undefined) return schema;
    const key = `${target[0]}\u0000${target[1]}`;
    if (reachable.has(key)) continue;
    reachable.add(key);
    const table = schema[target[0]];
    if (isNode(table) && table[target[1]] !== undefined) collectRefs(table[target[1]], pending);
  }
  const out: Node = { ...schema };
  for (const table of tables) {
    const entries = Object.entries(schema[table] as Node).filter(([name]) => reachable.has(`${table}\u0000${name}`));
    if (entries.length === 0) delete out[table];
    else out[table] = Object.fromEntries(entries);
  }
  return out;
}

function withoutKeys(node: Node, keys: readonly string[]): Node {
  const out: Node = { ...node };
  for (const key of keys) delete out[key];
  return out;
}

function isObjectSchema(node: Node): boolean {
  const type = node.type;
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object');
  return type === undefined && ('properties' in node || 'patternProperties' in node || 'required' in node);
}

type Rung = (schema: Node) => Node;

const rungs: ReadonlyArray<readonly [CompactionStep, Rung]> = [
  ['prune_definitions', pruneDefinitions],
  [
    'strip_nested_descriptions',
    (schema) =>
      rebuild(schema, (node, place) =>
        place.depth === 0 || place.topLevelProperty ? node : withoutKeys(node, ['description']),
      ) as Node,
  ],
  [
    'strip_property_descriptions',
    (schema) =>
      rebuild(schema, (node, place) => (place.depth === 0 ? node : withoutKeys(node, ['description']))) as Node,
  ],
  [
    'drop_definitions',
    (schema) =>
      rebuild(schema, (node, place) => {
        // A reference without its table would dangle: widen it to "anything".
        if (place.depth > 0 && refKeywords.some((keyword) => keyword in node)) return {};
        // With subschemas widened, `unevaluated*` would see fewer evaluated keys and reject more.
        return withoutKeys(node, [...definitionTables, ...refKeywords, 'unevaluatedProperties', 'unevaluatedItems']);
      }) as Node,
  ],
  [
    'collapse_deep_objects',
    (schema) =>
      rebuild(schema, (node, place) => {
        if (place.depth <= COLLAPSE_DEPTH || !isObjectSchema(node)) return node;
        const collapsed: Node = {};
        if (node.type !== undefined) collapsed.type = node.type;
        if (typeof node.description === 'string') collapsed.description = node.description;
        return collapsed;
      }) as Node,
  ],
  ['drop_compositions', (schema) => rebuild(schema, (node) => withoutKeys(node, compositions)) as Node],
];

/** The open object every over-budget schema falls back to. */
export const OPEN_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/** The outcome of {@link compactParameters}. */
export interface CompactedParameters {
  readonly parameters: JsonSchema;
  /** The rungs applied, in order; empty when the schema already fit. */
  readonly steps: readonly CompactionStep[];
}

/**
 * Shrinks a parameters schema until its compact JSON fits `maxBytes`, one rung at a time, each
 * applied on top of the last: prune unreachable `$defs`/`definitions` → strip nested property
 * descriptions → strip all property descriptions → drop definition tables (a surviving `$ref`
 * becomes `{}`) → collapse objects deeper than {@link COLLAPSE_DEPTH} to their `type` (keeping the
 * description) → drop `anyOf`/`oneOf`/`allOf`. Still over budget → {@link OPEN_OBJECT_SCHEMA}.
 *
 * Every rung only widens: top-level property names and `required` are kept, references and
 * compositions widen to `{}` (never to `type: object`), so any value the declared schema accepts
 * is accepted by the projection. Admission must still validate against the declared schema.
 */
export function compactParameters(parameters: JsonSchema, maxBytes: number): CompactedParameters {
  if (jsonBytes(parameters) <= maxBytes) return { parameters, steps: [] };
  let current = parameters as Node;
  const steps: CompactionStep[] = [];
  for (const [step, rung] of rungs) {
    const next = rung(current);
    if (JSON.stringify(next) === JSON.stringify(current)) continue;
    current = next;
    steps.push(step);
    if (jsonBytes(current) <= maxBytes) return { parameters: current, steps };
  }
  return { parameters: OPEN_OBJECT_SCHEMA, steps: [...steps, 'open_object'] };
}

/**
 * Projects a tool schema within the ceilings of `compaction`: description clipped with
 * {@link clipDescription}, parameters shrunk with {@link compactParameters}. Returns `schema`
 * itself when both already fit.
 */
export function compactToolSchema(schema: ToolSchema, compaction: SchemaCompaction): ToolSchema {
  const { maxDescriptionBytes, maxSchemaBytes } = compaction;
  const description =
    maxDescriptionBytes === undefined
      ? schema.description
      : clipDescription(schema.description ?? '', maxDescriptionBytes);
  const parameters =
    maxSchemaBytes === undefined ? schema.parameters : compactParameters(schema.parameters, maxSchemaBytes).parameters;
  if (description === schema.description && parameters === schema.parameters) return schema;
  return { ...schema, description, parameters };
}
