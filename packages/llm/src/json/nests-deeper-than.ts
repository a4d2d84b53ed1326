/**
 * Whether `value` nests arrays or objects more than `max` levels deep (a scalar is depth 0, `{}`
 * and `[]` are depth 1), decided before any recursive helper (`JSON.stringify`, a schema walk, a
 * redaction pass) meets it. The one depth check of the tiny layers: the harness bounds tool
 * arguments with it, `recordAssistantTurn` the arguments it serialises, and `@tiny/provider-utils`
 * values read off the wire.
 *
 * Iterative (an explicit stack), so no depth overflows the stack; it never walks past `max + 1`
 * levels, so a cycle is simply too deep; and an object reached again is walked again only from a
 * deeper level than before, so values that share objects (`[x, x]` at every level) cost at most
 * their distinct objects times `max`, never one walk per path. Own enumerable values only
 * (`Object.values`), as JSON reads them.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const deepest = new Map<object, number>();
  const stack: [object, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    if ((deepest.get(node) ?? 0) >= depth) continue;
    deepest.set(node, depth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
