import { InvalidInputError } from '@tiny/harness';

/** How deeply a request body may nest (messages, parts, tool inputs and outputs); deeper is refused. */
const MAX_BODY_DEPTH = 256;

/**
 * Throws `InvalidInputError` when `body` nests deeper than {@link MAX_BODY_DEPTH} levels. Walks with
 * an explicit stack (never recursion), so any body, however deep, is measured without overflowing.
 */
export function checkBodyDepth(body: unknown, entryPoint: string): void {
  const stack: Array<readonly [unknown, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as readonly [unknown, number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_BODY_DEPTH)
      throw new InvalidInputError({ entryPoint, reason: `the body nests deeper than ${MAX_BODY_DEPTH} levels` });
    for (const item of Object.values(value)) stack.push([item, depth + 1]);
  }
}
