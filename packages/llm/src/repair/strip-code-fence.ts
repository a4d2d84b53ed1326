/** Whether `code` may appear in a fence's language tag (`json`, `c++`, `tool-call`). @internal */
export function isFenceInfoCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 95 || // _
    code === 45 || // -
    code === 43 || // +
    code === 46 // .
  );
}

function fenceRunLength(text: string, start: number, fence: number): number {
  let index = start;
  while (text.charCodeAt(index) === fence) index++;
  return index - start;
}

/**
 * Removes one markdown code fence surrounding `text` (```` ``` ```` or `~~~`, at least three, with an
 * optional language tag such as `json`) and returns the trimmed body. The closing fence is removed
 * when present at the end; a missing one (output cut by a token limit) is tolerated.
 *
 * Returns `text` itself, untouched and untrimmed, when it does not start with a fence, so callers
 * can tell whether anything was removed with `!==`.
 */
export function stripCodeFence(text: string): string {
  const trimmed = text.trim();
  const fence = trimmed.charCodeAt(0);
  if (fence !== 96 && fence !== 126) return text;
  const openLength = fenceRunLength(trimmed, 0, fence);
  if (openLength < 3) return text;

  let wordEnd = openLength;
  while (wordEnd < trimmed.length && isFenceInfoCharacter(trimmed.charCodeAt(wordEnd))) wordEnd++;
  let lineEnd = wordEnd;
  while (trimmed.charCodeAt(lineEnd) === 32 || trimmed.charCodeAt(lineEnd) === 9) lineEnd++;
  // The body starts on the next line when the opener line holds only a language tag, otherwise
  // right after the tag (single-line fences such as ```json {"a":1}```).
  let bodyStart = wordEnd;
  if (trimmed.charCodeAt(lineEnd) === 13) lineEnd++;
  if (trimmed.charCodeAt(lineEnd) === 10) bodyStart = lineEnd + 1;

  let body = trimmed.slice(bodyStart).trimEnd();
  let closeStart = body.length;
  while (closeStart > 0 && body.charCodeAt(closeStart - 1) === fence) closeStart--;
  if (body.length - closeStart >= 3) body = body.slice(0, closeStart);
  return body.trim();
}
