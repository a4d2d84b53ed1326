/**
 * @internal A one-shot handoff of a strict `JSON.parse` result from the scan that found a block's
 * end to the decoder of the same body, so the body is parsed once. `take` returns the value only
 * for the same text, and only once (a value is never handed to two readers).
 */
let heldText: string | undefined;
let heldValue: unknown;

/** @internal Keeps the parse of `text` for the next {@link takeParsedBody} of the same text. */
export function holdParsedBody(text: string, value: unknown): void {
  heldText = text;
  heldValue = value;
}

/** @internal The held parse of `text`, once; `undefined` when none is held for it. */
export function takeParsedBody(text: string): { value: unknown } | undefined {
  if (heldText === undefined || heldText !== text) return undefined;
  const value = heldValue;
  heldText = undefined;
  heldValue = undefined;
  return { value };
}
