import { parseCodeCallBody } from '../../code-call/parse-code-call-body.js';
import { CODE_NESTING_LIMIT } from '../../code-call/read-code-literal.js';
import type { PformatRegistry } from '../../pformat/create-pformat-registry.js';
import { parsePformatBody } from '../../pformat/parse-pformat-body.js';
import { recoverLeadingObject } from '../../repair/recover-leading-object.js';
import { extractJsonValues, parseJsonStrict } from '../extract-json-values.js';
import { readCalls } from '../read-call-object.js';
import type { ToolKnowledge } from '../scan-context.js';
import type { RawCall } from '../scan-types.js';
import { stripOuterFence } from '../strip-outer-fence.js';
import { readGlmArgumentBody } from './glm-argument-body.js';
import { parseGlmLines } from './glm-lines.js';
import { readInvokeXmlBody } from './invoke-xml-body.js';
import { readKimiBody } from './kimi-body.js';
import { readPythonicList } from './pythonic.js';

/**
 * @internal Decodes the body of a `<tool_call>`-family block, trying in order: P-Format and
 * code calls (only when tools were offered), a Kimi `NAME{...}` body, an invoke-XML body
 * (Qwen3-Coder's `<function=…>` inside the tag), a GLM-4.5 `NAME<arg_key>…` body, every JSON value
 * in the body (one ```` ```json ```` fence removed), relaxed object recovery, and GLM lines. The two
 * added forms sit before the JSON steps because their values may themselves hold JSON. A leading
 * `call:` is ignored. A body that calls an offered tool in P-Format or code form but cannot be read
 * is one invalid call with the body as raw text. Returns no calls when nothing decodes.
 * `parsed` is a strict parse the caller already made of the trimmed body (`text`); it is used
 * only when `text` is that body.
 */
export function decodeTaggedBody(
  rawBody: string,
  knowledge: ToolKnowledge,
  parsed?: { readonly text: string; readonly value: unknown },
): RawCall[] {
  let body = rawBody.trim();
  if ((body.charCodeAt(0) | 32) === 99 && body.slice(0, 5).toLowerCase() === 'call:') body = body.slice(5).trim();
  if (body === '') return [];
  const first = body.charCodeAt(0);
  if (first === 91 && knowledge.registry !== undefined) {
    // A pythonic call list inside the tag: every sibling is a call (an unreadable one invalid).
    const list = readPythonicList(body, knowledge);
    if (list !== undefined && list.calls.length > 0) return list.calls;
  }
  if (first === 123 || first === 91) return decodeJsonBody(body, body, knowledge, parsed);
  const registry = knowledge.registry;
  if (registry !== undefined) {
    const pformat = parsePformatBody(body, registry);
    if (pformat !== undefined) return [{ name: pformat.name, arguments: pformat.arguments, source: 'pformat' }];
    const unfenced = stripOuterFence(body);
    const code = parseCodeCallBody(unfenced, registry);
    if (code !== undefined && code.length > 0) {
      return code.map((call) => ({ name: call.name, arguments: call.arguments, source: 'code' as const }));
    }
    const attempted = attemptedCall(unfenced, registry);
    if (attempted !== undefined) return perLine(unfenced, registry) ?? [attempted];
  }
  const kimi = readKimiBody(body);
  if (kimi !== undefined) return [kimi];
  const invoke = readInvokeXmlBody(body, knowledge);
  if (invoke.length > 0) return invoke;
  const glm = readGlmArgumentBody(body, knowledge);
  if (glm !== undefined) return [glm];

  return decodeJsonBody(body, stripOuterFence(body), knowledge);
}

const callHead =
  /^(?:(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*|[A-Za-z_$][\w$]*\s*=(?!=)\s*)?(?:await\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)[ \t]*([[(])/;

/**
 * A body that plainly calls an offered tool in P-Format (`NAME[`) or as code (`NAME(`, after an
 * optional `await` or assignment, the name dotted or not) but whose arguments could not be read
 * (a bad slot, an unclosed string, a variable as an argument): an invalid call carrying the whole
 * body as its raw text, as the JSON dialects give for arguments that do not decode, so admission
 * repairs it or answers with a tool error; never dropped and never `{}`.
 */
function attemptedCall(body: string, registry: PformatRegistry): RawCall | undefined {
  const match = callHead.exec(body);
  const written = match?.[1];
  if (written === undefined) return undefined;
  const last = written.slice(written.lastIndexOf('.') + 1);
  const name = registry.has(written) ? written : registry.has(last) ? last : undefined;
  if (name === undefined) return undefined;
  const pformat = match?.[2] === '[';
  const reason = pformat
    ? 'the P-Format arguments could not be read'
    : bracketDepth(body) > CODE_NESTING_LIMIT
      ? `the code-call arguments nest deeper than ${CODE_NESTING_LIMIT} levels`
      : 'the code-call arguments could not be read as literals';
  return { name, arguments: {}, source: pformat ? 'pformat' : 'code', invalid: { raw: body, reason } };
}

/**
 * A body of several code-call lines that does not read as a whole: each line read on its own (one
 * call per line, an unreadable one an invalid call), so a bad line does not take its siblings with
 * it. `undefined` when the body is one line or a line is not a call of an offered tool.
 */
function perLine(body: string, registry: PformatRegistry): RawCall[] | undefined {
  const lines = body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length < 2) return undefined;
  const calls: RawCall[] = [];
  for (const line of lines) {
    const code = parseCodeCallBody(line, registry);
    if (code !== undefined && code.length === 1) {
      for (const call of code) calls.push({ name: call.name, arguments: call.arguments, source: 'code' });
      continue;
    }
    const attempted = attemptedCall(line, registry);
    if (attempted === undefined) return undefined;
    calls.push(attempted);
  }
  return calls;
}

/**
 * The JSON steps, then GLM lines. A body that starts with `{` or `[` comes straight here: no
 * earlier step can read it (they all need a name or a tag first).
 */
function decodeJsonBody(
  body: string,
  unfenced: string,
  knowledge: ToolKnowledge,
  parsed?: { readonly text: string; readonly value: unknown },
): RawCall[] {
  const first = unfenced.charCodeAt(0);
  const whole =
    parsed !== undefined && parsed.text === unfenced
      ? parsed
      : first === 123 || first === 91
        ? parseJsonStrict(unfenced)
        : undefined;
  if (whole !== undefined) {
    const calls = readCalls(whole.value, true, knowledge.isKnown, 'tagged_json');
    if (calls.length > 0) return calls;
  } else {
    const calls: RawCall[] = [];
    for (const span of extractJsonValues(unfenced)) {
      for (const call of readCalls(span.value, true, knowledge.isKnown, 'tagged_json')) calls.push(call);
    }
    if (calls.length > 0) return calls;
  }

  // The object ladder only ever yields an object; an array-shaped body cannot become one.
  const recovered = first === 91 ? undefined : recoverLeadingObject(unfenced);
  if (recovered !== undefined) {
    const repaired = readCalls(recovered.value, true, knowledge.isKnown, 'tagged_json');
    if (repaired.length > 0) return repaired.map((call) => ({ ...call, repaired: true }));
  }
  return parseGlmLines(body);
}

/** The deepest nesting of `[`, `(` and `{` in `text` (brackets inside strings counted too: it only picks a reason). */
function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 91 || code === 40 || code === 123) deepest = Math.max(deepest, ++depth);
    else if ((code === 93 || code === 41 || code === 125) && depth > 0) depth--;
  }
  return deepest;
}
