import { type AnyTool, type CompleteTool, completeTool } from '@tiny/tools';
import { describeSafely, toPlainData } from './plain-data.js';
import { scrubValue } from './scrub-value.js';
import { binaryVariants, expandSecrets, MIN_SCRUB_LENGTH, REDACTED, scrubText } from './secret-variants.js';

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
  /** Set when more than {@link MAX_PATHS} paths were found: every argument is then sensitive. */
  overflow?: boolean;
}

/** How deep the schema walk goes; a subtree past it that may hold a sensitive field is sensitive whole. */
const MAX_SCHEMA_DEPTH = 32;
/** Most schema nodes {@link mayBeSensitive} looks at before it answers yes. */
const MAX_SCAN_NODES = 10_000;

/**
 * Whether `schema` (following its `$ref`s) may mark anything sensitive: the walk's fail-closed
 * answer for a subtree it does not go into (too deep, a recursion unrolled to its limit). Yes when
 * the scan itself runs past its bound.
 */
function mayBeSensitive(schema: unknown, state: Walk): boolean {
  const stack: unknown[] = [schema];
  const seen = new Set<object>();
  let budget = MAX_SCAN_NODES;
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    budget -= 1;
    if (budget < 0) return true;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (record[SENSITIVE_KEYWORD] === true) return true;
    if (typeof record.$ref === 'string') stack.push(resolveRef(state.root, record.$ref, state));
    for (const value of Object.values(record)) if (typeof value === 'object') stack.push(value);
  }
  return false;
}

/** Records `prefix` as sensitive whole when the subtree the walk stops at may hold a sensitive field. */
function cut(schema: unknown, prefix: Path, state: Walk): void {
  if (mayBeSensitive(schema, state)) state.out.push(prefix);
}

function walk(schema: unknown, prefix: Path, state: Walk, depth: number): void {
  if (typeof schema !== 'object' || schema === null) return;
  if (state.out.length >= MAX_PATHS) {
    // Fail closed: a schema naming this many sensitive paths has every argument sensitive.
    if (mayBeSensitive(schema, state)) state.overflow = true;
    return;
  }
  if (depth > MAX_SCHEMA_DEPTH) {
    cut(schema, prefix, state);
    return;
  }
  const node = schema as Record<string, unknown>;
  if (node[SENSITIVE_KEYWORD] === true) {
    state.out.push(prefix);
    return;
  }
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    const repeats = state.refs.filter((seen) => seen === ref).length;
    const target = resolveRef(state.root, ref, state);
    if (repeats < MAX_REF_REPEATS) {
      state.refs.push(ref);
      walk(target, prefix, state, depth + 1);
      state.refs.pop();
    } else cut(target, prefix, state);
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
 * a recursive schema is followed three levels deep, past which, as past 32 levels of nesting, the
 * subtree is sensitive whole when it may mark anything; more than 256 paths make every argument
 * sensitive) and the top-level names in
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
  const state: Walk = { root: tool.parameters, out: paths, refs: [] };
  walk(tool.parameters, [], state, 0);
  if (state.overflow === true) paths.splice(0, paths.length, []);
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
 * A copy of a call's `args` for `tool` as the harness's events show them: every sensitive field
 * (`x-tiny-sensitive` / {@link sensitive} at any depth, and the names in `policy.access.redact`)
 * replaced by `[redacted]`; a raw argument string of a tool with sensitive fields is redacted whole.
 * Use it wherever a tool's arguments are shown outside the run (an approval prompt, a log line).
 */
export function redactToolArguments(tool: AnyTool, args: unknown): unknown {
  return redactValue(args, redactionOf(completeTool(tool) as CompleteTool<never>));
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
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
      // Key bytes: every text they are commonly written as (hex, base64), not only their JSON form.
      const bytes =
        value instanceof ArrayBuffer
          ? new Uint8Array(value)
          : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      for (const text of binaryVariants(bytes)) out.add(text);
    }
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
  const out = new Set(redaction === undefined ? [] : expandSecrets(argumentSecrets(args, redaction)));
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

/**
 * The sensitive values of arguments as sent (which may not match the schema: an envelope, an
 * object as a JSON string): those under the sensitive paths, and what `redactLooseArguments` finds;
 * every string of the arguments when that is in doubt.
 */
function argumentSecrets(args: unknown, redaction: Redaction): Set<string> {
  const out = new Set(sensitiveRawValues(args, redaction));
  const loose = looseValues(args, [redaction]);
  if (loose === undefined) modelStrings(args, out, 0);
  else for (const value of loose) out.add(value);
  return out;
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

/** Most nodes the fail-closed walks over arguments that did not validate visit (then: in doubt). */
const MAX_LOOSE_NODES = 10_000;
/** Deepest level those walks go (then: in doubt). */
const MAX_LOOSE_DEPTH = 64;

/** Thrown inside the loose walks when they run past their bounds: the caller then fails closed. */
class InDoubt {}

/** The sensitive property names of `redactions` (lower-cased), or undefined when every argument is sensitive. */
function sensitiveNames(redactions: readonly Redaction[]): Set<string> | undefined {
  const names = new Set<string>();
  for (const redaction of redactions)
    for (const path of redaction.paths) {
      const named = path.filter((key) => key !== '*');
      if (named.length === 0) return undefined;
      names.add((named[named.length - 1] as string).toLowerCase());
    }
  return names;
}

/** A string that holds a JSON object or array (once fenced or not), decoded; else undefined. */
function decodedJson(text: string): object | undefined {
  let body = text.trim();
  const fence = /^```[\w-]*\s*([\s\S]*?)\s*```$/.exec(body);
  if (fence !== null) body = (fence[1] as string).trim();
  if (!body.startsWith('{') && !body.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

interface Loose {
  readonly redactions: readonly Redaction[];
  readonly names: ReadonlySet<string>;
  budget: number;
}

function step(state: Loose, depth: number): void {
  state.budget -= 1;
  if (state.budget < 0 || depth > MAX_LOOSE_DEPTH) throw new InDoubt();
}

/**
 * The sensitive values of arguments that may not match the schema: at every object of `value`
 * (JSON strings decoded, so an envelope or a stringified object is looked into), what every
 * sensitive path names, and whatever sits under a property named like a sensitive field.
 */
function looseCollect(value: unknown, state: Loose, out: Set<string>, depth: number): void {
  step(state, depth);
  if (typeof value === 'string') {
    const decoded = decodedJson(value);
    if (decoded !== undefined) looseCollect(decoded, state, out, depth + 1);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) looseCollect(item, state, out, depth + 1);
    return;
  }
  for (const redaction of state.redactions) for (const path of redaction.paths) collect(value, path, 0, out);
  for (const [key, item] of Object.entries(value)) {
    if (state.names.has(key.toLowerCase())) leaves(item, out, 0);
    looseCollect(item, state, out, depth + 1);
  }
}

/**
 * `value` with every sensitive path redacted at every object in it and every property named like
 * a sensitive field `[redacted]`, looking into JSON strings (re-encoded when something in them was
 * redacted).
 */
function looseRedact(value: unknown, state: Loose, depth: number): unknown {
  step(state, depth);
  if (typeof value === 'string') {
    const decoded = decodedJson(value);
    if (decoded === undefined) return value;
    const redacted = looseRedact(decoded, state, depth + 1);
    return safeJson(redacted) === safeJson(decoded) ? value : JSON.stringify(redacted);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => looseRedact(item, state, depth + 1));
  let out: unknown = value;
  for (const redaction of state.redactions) for (const path of redaction.paths) out = redactAt(out, path, 0);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(out as Record<string, unknown>))
    copy[key] = state.names.has(key.toLowerCase()) ? REDACTED : looseRedact(item, state, depth + 1);
  return copy;
}

/** What is left of captured arguments that could not be redacted with confidence: their size. */
function sizeOnly(args: unknown): string {
  const text = typeof args === 'string' ? args : (safeJson(args) ?? '');
  return `${REDACTED} (${text.length} characters of arguments)`;
}

/**
 * Captured arguments that did not validate (repaired, invalid, or sent to a tool the run does not
 * know), redacted fail-closed against `redactions` (the tool's, or every known tool's): the same
 * repairs the admission applies are looked through (an `{"arguments": {...}}` envelope, an object
 * sent as a JSON string, at any depth), so every sensitive path is `[redacted]` at every object and
 * every property named like a sensitive field is `[redacted]` at any depth; the sensitive values
 * found that way (and `extra`, already expanded) are then scrubbed from what is left. When that
 * scrub still finds one (the value sat somewhere no name or path explains), when every argument is
 * sensitive, or when the arguments are too large or deep to walk, only their size is kept. Without
 * redactions, `extra` is scrubbed and that is all.
 * @internal
 */
export function redactLooseArguments(
  args: unknown,
  redactions: readonly Redaction[],
  extra: readonly string[],
): unknown {
  if (redactions.length === 0) return extra.length === 0 ? args : scrubValue(args, extra);
  if (typeof args === 'string' && decodedJson(args) === undefined) return REDACTED;
  const names = sensitiveNames(redactions);
  if (names === undefined) return sizeOnly(args);
  try {
    const values = new Set<string>();
    looseCollect(args, { redactions, names, budget: MAX_LOOSE_NODES }, values, 0);
    const redacted = looseRedact(args, { redactions, names, budget: MAX_LOOSE_NODES }, 0);
    const secrets = expandSecrets(values);
    if (secrets.length > 0 && safeJson(scrubValue(redacted, secrets)) !== safeJson(redacted)) return sizeOnly(args);
    return extra.length === 0 ? redacted : scrubValue(redacted, extra);
  } catch (error) {
    if (error instanceof InDoubt) return sizeOnly(args);
    throw error;
  }
}

/** The sensitive values `redactLooseArguments` finds (raw), or undefined when it would be in doubt. */
function looseValues(args: unknown, redactions: readonly Redaction[]): Set<string> | undefined {
  const names = sensitiveNames(redactions);
  if (names === undefined) return undefined;
  const values = new Set<string>();
  try {
    looseCollect(args, { redactions, names, budget: MAX_LOOSE_NODES }, values, 0);
  } catch (error) {
    if (error instanceof InDoubt) return undefined;
    throw error;
  }
  return values;
}

/** The redactions of the known tools that have one. */
function knownRedactions(known: Iterable<{ readonly tool: CompleteTool<never> }>): Redaction[] {
  const out: Redaction[] = [];
  for (const entry of known) {
    const redaction = redactionOf(entry.tool);
    if (redaction !== undefined) out.push(redaction);
  }
  return out;
}

/**
 * The arguments of a call to a tool the run does not know, for a captured event: no schema says
 * which fields are sensitive, so they are redacted fail-closed against every tool the run knows
 * (the model may have misspelled the name of the tool it meant; see {@link redactLooseArguments}),
 * and every host value of the run (see {@link hostSecrets}) is scrubbed from what is left. A raw
 * argument string is redacted whole when any known tool has sensitive fields.
 * @internal
 */
export function redactUnknownArguments(
  args: unknown,
  known: Iterable<{ readonly tool: CompleteTool<never> }>,
  hostValues: Readonly<Record<string, unknown>> | undefined,
): unknown {
  return redactLooseArguments(args, knownRedactions(known), hostSecrets(hostValues));
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
  const redactions = knownRedactions(known);
  if (redactions.length > 0) {
    if (typeof args === 'string') raw.add(args);
    const loose = looseValues(args, redactions);
    // In doubt (every argument sensitive, too large to walk): every string the model sent.
    if (loose === undefined) modelStrings(args, raw, 0);
    else for (const value of loose) raw.add(value);
  }
  const host = hostSecrets(hostValues);
  if (raw.size === 0) return host;
  return [...expandSecrets(raw), ...host];
}
