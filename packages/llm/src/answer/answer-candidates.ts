/** Candidates taken at most from one answer (fenced blocks plus JSON-looking spans). */
const MAX_CANDIDATES = 24;
/** A span nested deeper than this is dropped (no answer nests so deep; the reader refuses past 128). */
const MAX_SPAN_DEPTH = 512;

/** Where a candidate came from. @internal */
export type CandidateOrigin = 'fence' | 'span';

/** A piece of an answer that may hold the value. @internal */
export interface AnswerCandidate {
  readonly text: string;
  readonly origin: CandidateOrigin;
  /** Where it starts in the answer. */
  readonly start: number;
  /** A span inside a fence or `` `inline code` ``: an example the answer quotes. */
  readonly quoted: boolean;
}

/** Where the answer's code is: fence bodies and inline code, as `[start, end)` pairs in order. */
type CodeRanges = number[];

/** The bodies of the markdown code fences of `text`, in order; an unclosed last fence runs to the end. */
function fencedBlocks(text: string, into: AnswerCandidate[], codeRanges: CodeRanges): void {
  let open: { readonly marker: string; readonly bodyStart: number } | undefined;
  let lineStart = 0;
  while (lineStart <= text.length && into.length < MAX_CANDIDATES) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).trim();
    if (open === undefined) {
      const match = /^(`{3,}|~{3,})[\w.+-]*/.exec(line);
      // "```," or "```}" closes a fenced value inside an object; it opens nothing.
      if (match !== null && !/^[,}\]]/.test(line.slice(match[0].length).trim())) {
        const rest = line.slice(match[0].length).trim();
        const closer = match[1] as string;
        // A one-line fence (```json {"a": 1}```) is a block of its own.
        if (rest.endsWith(closer) && rest.length > closer.length) {
          into.push({ text: rest.slice(0, -closer.length), origin: 'fence', start: lineStart, quoted: false });
          codeRanges.push(lineStart, lineEnd);
        } else {
          open = { marker: closer, bodyStart: rest === '' ? lineEnd + 1 : lineStart + line.indexOf(rest) };
        }
      }
    } else if (line.startsWith(open.marker) && /^[`~]+$/.test(line)) {
      into.push({ text: text.slice(open.bodyStart, lineStart), origin: 'fence', start: open.bodyStart, quoted: false });
      codeRanges.push(open.bodyStart, lineEnd);
      open = undefined;
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  if (open !== undefined && open.bodyStart < text.length && into.length < MAX_CANDIDATES) {
    into.push({ text: text.slice(open.bodyStart), origin: 'fence', start: open.bodyStart, quoted: false });
    codeRanges.push(open.bodyStart, text.length);
  }
}

/**
 * Where a string written with another delimiter than `"` ends, for a value starting at `index`
 * (a fenced block, `"""triple quotes"""` or a `` `backtick` `` string): the index after it, or
 * `undefined` when `index` starts none. Brackets inside such a value are content.
 */
function skipDelimitedValue(text: string, index: number): number | undefined {
  const code = text.charCodeAt(index);
  if (code === 34 && text.startsWith('"""', index)) {
    const end = text.indexOf('"""', index + 3);
    return end < 0 ? text.length : end + 3;
  }
  if (code !== 96) return undefined;
  if (text.startsWith('```', index)) {
    const lineEnd = text.indexOf('\n', index);
    const sameLine = text.indexOf('```', index + 3);
    if (sameLine >= 0 && (lineEnd < 0 || sameLine < lineEnd)) return sameLine + 3;
    if (lineEnd < 0) return text.length;
    const closer = /^[ \t]*```/gm;
    closer.lastIndex = lineEnd + 1;
    const found = closer.exec(text);
    return found === null ? text.length : found.index + found[0].length;
  }
  // A backtick string ends at a backtick followed by the end of a value.
  const closer = /`(?=[ \t]*(?:[,}\]\r\n]|$))/g;
  closer.lastIndex = index + 1;
  const found = closer.exec(text);
  return found === null ? text.length : found.index + 1;
}

/**
 * The top-level `{…}` / `[…]` spans of `text`, in order, skipping brackets inside strings; a span
 * still open at the end runs to the end (an answer cut off). One pass.
 */
function jsonSpans(text: string, into: AnswerCandidate[], codeRanges: CodeRanges): void {
  const inCode = (at: number): boolean => {
    for (let range = 0; range < codeRanges.length; range += 2) {
      if (at >= (codeRanges[range] as number) && at < (codeRanges[range + 1] as number)) return true;
    }
    return false;
  };
  // The run length of the `` `inline code` `` open at depth 0 (0: none).
  let inline = 0;
  // The closers owed, as a fixed stack (1 = `}`, 2 = `]`): a plain array is slow to grow this often.
  const stack = new Uint8Array(MAX_SPAN_DEPTH + 1);
  let depth = 0;
  let start = -1;
  let quote = 0;
  let escaped = false;
  let previous = 0;
  for (let index = 0; index < text.length && into.length < MAX_CANDIDATES; index++) {
    const code = text.charCodeAt(index);
    if (depth === 0) {
      if (code === 96) {
        let run = 1;
        while (text.charCodeAt(index + run) === 96) run++;
        // Runs of three or more are fences (their bodies are known ranges); one or two delimit
        // inline code, closed by a run of the same length.
        if (run < 3 && !inCode(index)) inline = inline === 0 ? run : inline === run ? 0 : inline;
        index += run - 1;
        continue;
      }
      if (code === 123 || code === 91) {
        start = index;
        stack[0] = code === 123 ? 1 : 2;
        depth = 1;
        previous = code;
      }
      continue;
    }
    if (quote !== 0) {
      if (escaped) escaped = false;
      else if (code === 92) escaped = true;
      else if (code === quote || (quote === 39 && code === 10)) quote = 0;
      continue;
    }
    const valueStart = previous === 58 || previous === 91 || previous === 44 || previous === 123;
    const skipTo = valueStart ? skipDelimitedValue(text, index) : undefined;
    if (skipTo !== undefined) {
      index = skipTo - 1;
      previous = 34;
      continue;
    }
    if (code === 34 || (code === 39 && valueStart)) {
      quote = code;
    } else if (code === 123 || code === 91) {
      if (depth >= MAX_SPAN_DEPTH) {
        depth = 0;
        continue;
      }
      stack[depth++] = code === 123 ? 1 : 2;
    } else if (code === 125 || code === 93) {
      if (stack[depth - 1] !== (code === 125 ? 1 : 2)) {
        depth = 0;
        continue;
      }
      depth--;
      if (depth === 0) {
        into.push({ text: text.slice(start, index + 1), origin: 'span', start, quoted: inline !== 0 || inCode(start) });
      }
    }
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) previous = code;
  }
  if (depth > 0 && into.length < MAX_CANDIDATES) {
    into.push({ text: text.slice(start), origin: 'span', start, quoted: inline !== 0 || inCode(start) });
  }
}

/**
 * The pieces of an answer that may hold its value, in the order they are tried, without repeats,
 * at most 24: the bodies of its code fences and its top-level JSON-looking spans outside code, by
 * where they start (what the answer says first is its answer; an example it quotes later is not),
 * then the spans inside `` `inline code` `` or a fence (quoted examples, tried last). Linear in
 * the text.
 * @internal
 */
export function answerCandidates(text: string): AnswerCandidate[] {
  const found: AnswerCandidate[] = [];
  const codeRanges: CodeRanges = [];
  fencedBlocks(text, found, codeRanges);
  jsonSpans(text, found, codeRanges);
  const ordered = [
    ...found.filter((candidate) => !candidate.quoted).sort((a, b) => a.start - b.start),
    ...found.filter((candidate) => candidate.quoted),
  ];
  const seen = new Set<string>();
  const trimmedWhole = text.trim();
  return ordered.filter((candidate) => {
    const key = candidate.text.trim();
    if (key === '' || key === trimmedWhole || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
