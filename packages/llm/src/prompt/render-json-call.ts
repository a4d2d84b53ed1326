import { matchEnvelopeTag } from '../envelope/match-envelope-tag.js';

/** Replaces a `<` that would open or close a `tool_call`/`tool_result` tag with its JSON escape. */
function protectTags(json: string): string {
  let output = '';
  let copied = 0;
  let index = json.indexOf('<');
  while (index >= 0) {
    if (matchEnvelopeTag(json, index + 1) >= 0) {
      output += `${json.slice(copied, index)}\\u003c`;
      copied = index + 1;
    }
    index = json.indexOf('<', index + 1);
  }
  return copied === 0 ? json : output + json.slice(copied);
}

/**
 * Writes one call the way the JSON (XML-tag) dialect asks models to write it:
 * `<tool_call>{"name":"…","arguments":{…}}</tool_call>`, compact JSON, `arguments` as given
 * (`undefined` becomes `{}`). A `<` inside a string value that would open or close a
 * `tool_call`/`tool_result` tag is written as `\u003c`, which decodes to the same value.
 *
 * @throws {TypeError} when `args` cannot be serialised as JSON (a cycle or a BigInt).
 */
export function renderJsonCall(name: string, args: unknown): string {
  return `<tool_call>${protectTags(JSON.stringify({ name, arguments: args ?? {} }))}</tool_call>`;
}

/** Writes several calls with {@link renderJsonCall}, one per line. */
export function renderJsonCalls(calls: readonly { readonly name: string; readonly arguments: unknown }[]): string {
  return calls.map((call) => renderJsonCall(call.name, call.arguments)).join('\n');
}
