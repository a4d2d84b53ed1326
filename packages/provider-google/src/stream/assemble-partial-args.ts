import { asArray, asNumber, asRecord, asString } from '@tiny/provider-utils';

/** One step of a `jsonPath` (`$.operations[0].action`): a property name or an array index. */
type Step = string | number;

/** The steps of a `jsonPath` in the simple form the API sends (`$.a.b[0].c`); `undefined` for any other form. */
function stepsOf(path: string): Step[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: Step[] = [];
  const pattern = /\.([A-Za-z_][\w-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null) return undefined;
    steps.push(match[1] ?? (match[2] !== undefined ? Number(match[2]) : (match[3] ?? '')));
  }
  return steps.length === 0 ? undefined : steps;
}

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Streamed function-call arguments (Vertex AI `streamFunctionCallArguments`): each `partialArgs`
 * entry sets the value at its `jsonPath`, string pieces (`stringValue`) of one path joining in
 * order. `apply` returns a reason when an entry cannot be placed (an unreadable path, a path
 * through a value of another kind, a prototype key); the call is then invalid.
 * @internal
 */
export class PartialArguments {
  readonly root: Record<string, unknown> = {};
  private readonly strings = new Set<string>();

  apply(entries: unknown): string | undefined {
    for (const value of asArray(entries)) {
      const entry = asRecord(value);
      const path = asString(entry?.jsonPath);
      const steps = path === undefined ? undefined : stepsOf(path);
      if (entry === undefined || path === undefined || steps === undefined)
        return `an unreadable partialArgs path ${JSON.stringify(path ?? null)}`;
      if (steps.some((step) => typeof step === 'string' && UNSAFE.has(step)))
        return `a partialArgs path through a reserved key (${path})`;
      let leaf: unknown;
      if (entry.stringValue !== undefined) {
        const piece = asString(entry.stringValue) ?? '';
        leaf = this.strings.has(path) ? `${(this.read(steps) as string | undefined) ?? ''}${piece}` : piece;
        this.strings.add(path);
      } else if (entry.numberValue !== undefined) leaf = asNumber(entry.numberValue);
      else if (entry.boolValue !== undefined) leaf = entry.boolValue === true;
      else if (entry.nullValue !== undefined) leaf = null;
      else continue;
      if (!this.write(steps, leaf)) return `a partialArgs path through a value of another kind (${path})`;
    }
    return undefined;
  }

  private read(steps: readonly Step[]): unknown {
    let node: unknown = this.root;
    for (const step of steps) node = (node as Record<string | number, unknown> | undefined)?.[step];
    return node;
  }

  private write(steps: readonly Step[], leaf: unknown): boolean {
    let node: Record<string | number, unknown> = this.root;
    for (let index = 0; index < steps.length - 1; index += 1) {
      const step = steps[index] as Step;
      const next = steps[index + 1];
      let child = node[step];
      if (child === undefined) {
        child = typeof next === 'number' ? [] : {};
        node[step] = child;
      }
      if (typeof child !== 'object' || child === null || Array.isArray(child) !== (typeof next === 'number'))
        return false;
      node = child as Record<string | number, unknown>;
    }
    const last = steps[steps.length - 1] as Step;
    if (Array.isArray(node) !== (typeof last === 'number')) return false;
    node[last] = leaf;
    return true;
  }
}
