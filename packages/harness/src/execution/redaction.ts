import { type CompleteTool, completeTool } from '@tiny/tools';
import { describeSafely, toPlainData } from './plain-data.js';
import { scrubValue } from './scrub-value.js';
import { expandSecrets, MIN_SCRUB_LENGTH, REDACTED, scrubText } from './secret-variants.js';

export { REDACTED, scrubText };

/** The JSON Schema keyword that marks a property's value as sensitive. */
export const SENSITIVE_KEYWORD = 'x-tiny-sensitive';

/**
 * Marks a schema (a TypeBox schema or plain JSON Schema) as sensitive: its value is replaced by
 * `[redacted]` in events, spans, traces and error messages, while the tool still receives it.
 * Same as writing `"x-tiny-sensitive": true` (e.g. `Type.String({ 'x-tiny-sensitive': true })`).
 */
export function sensitive<T extends object>(schema: T): T {
  return { ...schema, [SENSITIVE_KEYWORD]: true };
}

/** Paths (property names, `*` for any array item or extra property) whose values are sensitive. */
type Path = readonly string[];

/** A tool's sensitive argument paths. @internal */
export interface Redaction {
  readonly paths: readonly Path[];
}

const cache = new WeakMap<object, Redaction | null>();

/** Most paths one tool's schema may name (a recursive schema is cut off there). */
const MAX_PATHS = 256;
/** How often one `$ref` may be followed on one path (a recursive schema is unrolled that deep). */
const MAX_REF_REPEATS = 3;

/** Most schema nodes indexed for `$id` / `$anchor` references in one tool's schema. */
const MAX_INDEXED = 4096;

/** The subschemas of `root` by their `$id`, `$anchor` (as `#name`) and `$dynamicAnchor`, each once. */
function indexIds(root: unknown): Map<string, unknown> {
  const index = new Map<string, unknown>();
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0 && seen.size < MAX_INDEXED) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (typeof record.$id === 'string' && !index.has(record.$id)) index.set(record.$id, node);
    for (const key of ['$anchor', '$dynamicAnchor'] as const) {
      const anchor = record[key];
      if (typeof anchor === 'string' && !index.has(`#${anchor}`)) index.set(`#${anchor}`, node);
    }
    for (const value of Object.values(record)) if (typeof value === 'object' && value !== null) stack.push(value);
  }
  return index;
}

/**
 * A reference resolved in the root schema: `#`, a `#/` JSON pointer (`#/$defs/Name`), a `#name`
 * anchor (`$anchor`, `$dynamicAnchor`), or the `$id` of a subschema (a TypeBox `Type.Ref('Pw')`;
 * also with a `#/...` pointer after it).
 */
function resolveRef(root: unknown, ref: string, state: { ids?: Map<string, unknown> }): unknown {
  if (ref === '#') return root;
  if (ref.startsWith('#/')) return pointer(root, ref.slice(2));
  state.ids ??= indexIds(root);
  const direct = state.ids.get(ref);
  if (direct !== undefined) return direct;
  const hash = ref.indexOf('#');
  if (hash > 0) {
    const base = state.ids.get(ref.slice(0, hash));
    const rest = ref.slice(hash);
    if (base === undefined) return undefined;
    if (rest === '#') return base;
    if (rest.startsWith('#/')) return pointer(base, rest.slice(2));
    return indexIds(base).get(rest);
  }
  return undefined;
}

function pointer(root: unknown, path: string): unknown {
  let node: unknown = root;
  for (const raw of path.split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

interface Walk {
  readonly root: unknown;
  readonly out: Path[];
  readonly refs: string[];
  ids?: Map<string, unknown>;
}

function walk(schema: unknown, prefix: Path, state: Walk, depth: number): void {
  if (typeof schema !== 'object' || schema === null || depth > 32 || state.out.length >= MAX_PATHS) return;
  const node = schema as Record<string, unknown>;
  if (node[SENSITIVE_KEYWORD] === true) {
    state.out.push(prefix);
    return;
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const repeats = state.refs.filter((seen) => seen === ref).length;
    if (repeats < MAX_REF_REPEATS) {
      state.refs.push(ref);
      walk(resolveRef(state.root, ref, state), prefix, state, depth + 1);
      state.refs.pop();
    }
  }
  for (const key of ['properties', 'patternProperties'] as const) {
    const map = node[key];
    if (typeof map !== 'object' || map === null) continue;
    for (const [name, value] of Object.entries(map))
      walk(value, [...prefix, key === 'properties' ? name : '*'], state, depth + 1);
  }
  for (const key of [
    'items',
    'additionalProperties',
    'unevaluatedProperties',
    'additionalItems',
    'contains',
    'unevaluatedItems',
  ] as const) {
    const value = node[key];
    if (Array.isArray(value)) for (const entry of value) walk(entry, [...prefix, '*'], state, depth + 1);
    else if (typeof value === 'object') walk(value, [...prefix, '*'], state, depth + 1);
  }
  if (Array.isArray(node.prefixItems))
    for (const entry of node.prefixItems) walk(entry, [...prefix, '*'], state, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const entry of list) walk(entry, prefix, state, depth + 1);
  }
  for (const key of ['if', 'then', 'else', 'not'] as const) walk(node[key], prefix, state, depth + 1);
  // `dependentSchemas`, and draft-07 `dependencies` (whose array entries name properties, not schemas).
  for (const key of ['dependentSchemas', 'dependencies'] as const) {
    const dependent = node[key];
    if (typeof dependent === 'object' && dependent !== null)
      for (const value of Object.values(dependent)) if (!Array.isArray(value)) walk(value, prefix, state, depth + 1);
  }
}

/** Whether a tool can call nested tools (`nestedTools`, code mode) that have sensitive fields. */
function nestsSensitive(tool: CompleteTool<never>): boolean {
  const nested = tool.nestedTools;
  if (nested === undefined || nested.length === 0) return false;
  return nested.some((inner) => {
    try {
      return redactionOf(completeTool(inner) as CompleteTool<never>) !== undefined;
    } catch {
      return false;
    }
  });
}

/**
 * A tool's sensitive paths: properties marked `"x-tiny-sensitive": true` in its parameters schema
 * (at any depth, through arrays, unions, conditionals and local `$ref`s into `$defs`/`definitions`;
 * a recursive schema is followed three levels deep) and the top-level names in
 * `policy.access.redact`. A tool whose `nestedTools` have sensitive fields (a code-mode tool) has
 * every argument sensitive: its program text may spell out the values it passes to them.
 * Computed once per tool; undefined when the tool has none (the common case costs one map lookup).
 * @internal
 */
export function redactionOf(tool: CompleteTool<never> | undefined): Redaction | undefined {
  if (tool === undefined) return undefined;
  const cached = cache.get(tool);
  if (cached !== undefined) return cached ?? undefined;
  const paths: Path[] = tool.policy.access.redact.map((name) => [name]);
  // Marked before walking, so a tool nesting itself cannot recurse here.
  cache.set(tool, null);
  walk(tool.parameters, [], { root: tool.parameters, out: paths, refs: [] }, 0);
  if (nestsSensitive(tool)) paths.push(['*']);
  const redaction = paths.length === 0 ? null : { paths };
  cache.set(tool, redaction);
  return redaction ?? undefined;
}

function redactAt(value: unknown, path: Path, at: number): unknown {
  if (at === path.length) return value === undefined ? undefined : REDACTED;
  const key = path[at] as string;
  if (Array.isArray(value)) {
    if (key !== '*') return value;
    return value.map((item) => redactAt(item, path, at + 1));
  }
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = { ...record };
  for (const name of key === '*' ? Object.keys(record) : [key]) {
    if (Object.hasOwn(record, name)) copy[name] = redactAt(record[name], path, at + 1);
  }
  return copy;
}

/**
 * A copy of `value` with every sensitive path replaced by `[redacted]`; a raw (unparsed) argument
 * string of a tool with sensitive fields is redacted whole. The original is never changed.
 * @internal
 */
export function redactValue(value: unknown, redaction: Redaction | undefined): unknown {
  if (redaction === undefined) return value;
  if (typeof value === 'string') return REDACTED;
  let out = value;
  for (const path of redaction.paths) out = redactAt(out, path, 0);
  return out;
}

function collect(value: unknown, path: Path, at: number, out: Set<string>): void {
  if (value === undefined) return;
  if (at === path.length) {
    leaves(value, out, 0);
    return;
  }
  const key = path[at] as string;
  if (Array.isArray(value)) {
    if (key === '*') for (const item of value) collect(item, path, at + 1, out);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const name of key === '*' ? Object.keys(record) : [key])
    if (Object.hasOwn(record, name)) collect(record[name], path, at + 1, out);
}

/**
 * Every string and number inside `value`, each once, at any depth: through plain objects and
 * arrays, Map and Set entries, and any other object (a class instance, a URL, a Date) by the JSON
 * data it serialises as (see `toPlainData`) and its own `String()` text; and an object's JSON text
 * as well. A number also gives its `en-US` grouped form (`4,111,111,111,111,111`).
 */
function leaves(value: unknown, out: Set<string>, depth: number, seen: Set<object> = new Set()): void {
  try {
    walkLeaves(value, out, depth, seen);
  } catch {
    // A getter or proxy trap threw: what was collected before it stands.
  }
}

function walkLeaves(value: unknown, out: Set<string>, depth: number, seen: Set<object>): void {
  if (depth > 64 || value === undefined || value === null) return;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'number' || typeof value === 'bigint') {
    out.add(String(value));
    out.add(value.toLocaleString('en-US'));
  } else if (typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) leaves(item, out, depth + 1, seen);
      return;
    }
    if (value instanceof Map || value instanceof Set) {
      for (const entry of value instanceof Map ? value.entries() : value.values()) leaves(entry, out, depth + 1, seen);
      return;
    }
    if (value instanceof URL) {
      // Its credentials and query values, which a tool reads out one by one.
      for (const part of [value.username, value.password, value.hash.slice(1)])
        if (part !== '') leaves(part, out, depth + 1, seen);
      for (const part of [value.username, value.password])
        if (part !== '') leaves(safeDecode(part), out, depth + 1, seen);
      for (const item of value.searchParams.values()) leaves(item, out, depth + 1, seen);
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) {
      // A class instance, URL, Date, boxed value: what it serialises as, and what it prints as.
      const plain = toPlainData(value);
      if (plain !== null && typeof plain === 'object') leaves(plain, out, depth + 1, seen);
      else if (typeof plain === 'string' || typeof plain === 'number') out.add(String(plain));
      const text = describeSafely(value);
      if (text !== '[object Object]') out.add(text);
      return;
    }
    for (const item of Object.values(value)) leaves(item, out, depth + 1, seen);
    const text = safeJson(value);
    if (text !== undefined) out.add(text);
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The raw sensitive values of one call's arguments (every string and number under a sensitive
 * path). @internal
 */
export function sensitiveRawValues(args: unknown, redaction: Redaction | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  if (redaction !== undefined) for (const path of redaction.paths) collect(args, path, 0, out);
  return out;
}

/**
 * The sensitive values of one call's arguments with their encoded forms (see `secretVariants`),
 * longest first, for scrubbing free text (results, error messages) that may quote them. Empty
 * without a redaction.
 * @internal
 */
export function sensitiveValues(args: unknown, redaction: Redaction | undefined): readonly string[] {
  if (redaction === undefined) return [];
  return expandSecrets(sensitiveRawValues(args, redaction));
}

/**
 * The raw values the host injected into one call (its `injected` arguments with source `host`,
 * every string and number inside them) and its sensitive argument values: what the call's output
 * must not carry. Undefined when the tool has neither (most tools; no allocation).
 * @internal
 */
export function callRawSecrets(tool: CompleteTool<never>, args: unknown): ReadonlySet<string> | undefined {
  const redaction = redactionOf(tool);
  const injected = tool.injected;
  if (redaction === undefined && injected.length === 0) return undefined;
  const out = new Set<string>();
  if (redaction !== undefined) for (const path of redaction.paths) collect(args, path, 0, out);
  if (typeof args === 'object' && args !== null)
    for (const argument of injected) {
      if (argument.source !== 'host' || !Object.hasOwn(args, argument.name)) continue;
      leaves((args as Record<string, unknown>)[argument.name], out, 0);
    }
  return out.size === 0 ? undefined : out;
}

const hostSecretCache = new WeakMap<object, readonly string[]>();

/**
 * The host values of a run (`context.hostValues`, every string and number inside them, at any
 * depth) with their encoded forms, longest first: injected arguments, which the model must never
 * read back. Values shorter than `MIN_SCRUB_LENGTH` are left out (see there). Cached per object.
 * @internal
 */
export function hostSecrets(hostValues: Readonly<Record<string, unknown>> | undefined): readonly string[] {
  if (hostValues === undefined) return [];
  let secrets = hostSecretCache.get(hostValues);
  if (secrets === undefined) {
    const raw = new Set<string>();
    for (const value of Object.values(hostValues)) leaves(value, raw, 0);
    secrets = expandSecrets(raw);
    hostSecretCache.set(hostValues, secrets);
  }
  return secrets;
}

/**
 * The values to scrub from an event's free text (a result or error that may echo the call):
 * the sensitive ones always; without `captureToolIo` also every string the model sent of at least
 * four characters (a raw argument string whole), so arguments never reach a recorded event unless
 * the host opted in. Longest first. Only computed for error text and captured output.
 * @internal
 */
export function eventSecrets(args: unknown, redaction: Redaction | undefined, capture: boolean): readonly string[] {
  if (capture && redaction === undefined) return [];
  const out = new Set(redaction === undefined ? [] : expandSecrets(sensitiveRawValues(args, redaction)));
  // The model's own strings are kept out of records, not secrets: as written and JSON-escaped suffice.
  const plain = new Set<string>();
  if (!capture) modelStrings(args, plain, 0);
  else if (typeof args === 'string' && args !== '') plain.add(args);
  for (const text of plain) {
    out.add(text);
    out.add(JSON.stringify(text).slice(1, -1));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

function modelStrings(value: unknown, out: Set<string>, depth: number): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (value.length >= MIN_SCRUB_LENGTH) out.add(value);
  } else if (Array.isArray(value)) {
    for (const item of value) modelStrings(item, out, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) modelStrings(item, out, depth + 1);
  }
}

/**
 * The arguments of a call to a tool the run does not know, for a captured event: no schema says
 * which fields are sensitive, so every sensitive path of every tool the run knows is `[redacted]`
 * (the model may have misspelled the name of the tool it meant), and every host value of the run
 * (see {@link hostSecrets}) is scrubbed from what is left. A raw argument string is redacted whole
 * when any known tool has sensitive fields.
 * @internal
 */
export function redactUnknownArguments(
  args: unknown,
  known: Iterable<{ readonly tool: CompleteTool<never> }>,
  hostValues: Readonly<Record<string, unknown>> | undefined,
): unknown {
  let out = args;
  for (const entry of known) out = redactValue(out, redactionOf(entry.tool));
  return scrubValue(out, hostSecrets(hostValues));
}

/**
 * The values to scrub from the recorded text of a call to a tool the run does not know (the
 * `unknown tool` answer quotes its arguments): every value under any known tool's sensitive paths
 * (the model may have misspelled the tool it meant), a raw argument string whole when any known
 * tool has sensitive fields, and the run's host values; with their encoded forms.
 * @internal
 */
export function unknownCallSecrets(
  args: unknown,
  known: Iterable<{ readonly tool: CompleteTool<never> }>,
  hostValues: Readonly<Record<string, unknown>> | undefined,
): readonly string[] {
  const raw = new Set<string>();
  for (const entry of known) {
    const redaction = redactionOf(entry.tool);
    if (redaction === undefined) continue;
    if (typeof args === 'string') raw.add(args);
    for (const value of sensitiveRawValues(args, redaction)) raw.add(value);
  }
  const host = hostSecrets(hostValues);
  if (raw.size === 0) return host;
  return [...expandSecrets(raw), ...host];
}
