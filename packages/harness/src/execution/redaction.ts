import { type CompleteTool, completeTool } from '@tiny/tools';
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

/** A local reference (`#`, `#/$defs/Name`, any `#/` JSON pointer) resolved in the root schema. */
function resolveRef(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

interface Walk {
  readonly root: unknown;
  readonly out: Path[];
  readonly refs: string[];
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
      walk(resolveRef(state.root, ref), prefix, state, depth + 1);
      state.refs.pop();
    }
  }
  for (const key of ['properties', 'patternProperties'] as const) {
    const map = node[key];
    if (typeof map !== 'object' || map === null) continue;
    for (const [name, value] of Object.entries(map))
      walk(value, [...prefix, key === 'properties' ? name : '*'], state, depth + 1);
  }
  for (const key of ['items', 'additionalProperties', 'unevaluatedProperties', 'additionalItems'] as const) {
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
  for (const key of ['if', 'then', 'else'] as const) walk(node[key], prefix, state, depth + 1);
  const dependent = node.dependentSchemas;
  if (typeof dependent === 'object' && dependent !== null)
    for (const value of Object.values(dependent)) walk(value, prefix, state, depth + 1);
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
 * Every string and number inside `value` (plain objects and arrays, at any depth, each once), and
 * an object's JSON text as well.
 */
function leaves(value: unknown, out: Set<string>, depth: number, seen: Set<object> = new Set()): void {
  if (depth > 32 || value === undefined || value === null) return;
  if (typeof value === 'string') out.add(value);
  else if (typeof value === 'number' || typeof value === 'bigint') out.add(String(value));
  else if (typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) leaves(item, out, depth + 1, seen);
      return;
    }
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== Object.prototype && prototype !== null) return;
    for (const item of Object.values(value)) leaves(item, out, depth + 1, seen);
    const text = safeJson(value);
    if (text !== undefined) out.add(text);
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
