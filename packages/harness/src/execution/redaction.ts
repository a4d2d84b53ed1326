import type { CompleteTool } from '@tiny/tools';

/** The JSON Schema keyword that marks a property's value as sensitive. */
export const SENSITIVE_KEYWORD = 'x-tiny-sensitive';

/** What replaces a sensitive value in events, spans, traces and error messages. */
export const REDACTED = '[redacted]';

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

function walk(schema: unknown, prefix: Path, out: Path[], depth: number): void {
  if (typeof schema !== 'object' || schema === null || depth > 32) return;
  const node = schema as Record<string, unknown>;
  if (node[SENSITIVE_KEYWORD] === true) {
    out.push(prefix);
    return;
  }
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null)
    for (const [key, value] of Object.entries(properties)) walk(value, [...prefix, key], out, depth + 1);
  if (typeof node.items === 'object') walk(node.items, [...prefix, '*'], out, depth + 1);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, [...prefix, '*'], out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const entry of list) walk(entry, prefix, out, depth + 1);
  }
}

/**
 * A tool's sensitive paths: properties marked `"x-tiny-sensitive": true` in its parameters schema
 * (at any depth, through arrays and unions) and the top-level names in `policy.access.redact`.
 * Computed once per tool; undefined when the tool has none (the common case costs one map lookup).
 * @internal
 */
export function redactionOf(tool: CompleteTool<never> | undefined): Redaction | undefined {
  if (tool === undefined) return undefined;
  const cached = cache.get(tool);
  if (cached !== undefined) return cached ?? undefined;
  const paths: Path[] = tool.policy.access.redact.map((name) => [name]);
  walk(tool.parameters, [], paths, 0);
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
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text === undefined || text === '') return;
    out.add(text);
    const escaped = JSON.stringify(text).slice(1, -1);
    if (escaped !== text) out.add(escaped);
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
 * The sensitive values of one call's arguments (as text, longest first), for scrubbing free text
 * (results, error messages) that may quote them. Empty without a redaction.
 * @internal
 */
export function sensitiveValues(args: unknown, redaction: Redaction | undefined): readonly string[] {
  if (redaction === undefined) return [];
  const out = new Set<string>();
  for (const path of redaction.paths) collect(args, path, 0, out);
  return [...out].sort((a, b) => b.length - a.length);
}

function leaves(value: unknown, out: Set<string>, minLength: number, depth: number): void {
  if (depth > 32) return;
  if (typeof value === 'string') {
    if (value.length < minLength) return;
    out.add(value);
    const escaped = JSON.stringify(value).slice(1, -1);
    if (escaped !== value) out.add(escaped);
  } else if (Array.isArray(value)) {
    for (const item of value) leaves(item, out, minLength, depth + 1);
  } else if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) leaves(item, out, minLength, depth + 1);
  }
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
  const out = new Set(sensitiveValues(args, redaction));
  if (!capture) leaves(args, out, 4, 0);
  else if (typeof args === 'string' && args !== '') out.add(args);
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of a sensitive value replaced by `[redacted]`. @internal */
export function scrubText(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
  return out;
}
