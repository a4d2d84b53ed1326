/**
 * `JSON.parse` that returns `undefined` instead of throwing. `JSON.parse` itself never yields
 * `undefined`, so the result is unambiguous.
 * @internal
 */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
