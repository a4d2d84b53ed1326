import type { LanguageModelV1StreamPart } from '@tiny/llm';

/** Every part of a stream, in order. */
export async function partsOf(stream: AsyncIterable<LanguageModelV1StreamPart>): Promise<LanguageModelV1StreamPart[]> {
  const parts: LanguageModelV1StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Replays collected parts as a stream again (for `collectStream` and friends). */
export async function* replayParts(
  parts: readonly LanguageModelV1StreamPart[],
): AsyncGenerator<LanguageModelV1StreamPart> {
  yield* parts;
}
