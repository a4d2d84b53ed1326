import type { CallGrammar } from '@tiny/llm';

/**
 * Markers of the call grammars chat templates teach, most specific first (a Qwen3-Coder
 * `<tool_call><function=…>` body is `invoke_xml`, not `tagged_json`). Facts from the templates
 * themselves (`__fixtures__/chat-templates/`) and the grammar notes of `@tiny/llm`'s parsers.
 */
const MARKERS: readonly (readonly [RegExp, CallGrammar])[] = [
  [/<\|channel\|>|<\|call\|>/, 'harmony'], // gpt-oss (Harmony)
  [/\[TOOL_CALLS\]/, 'mistral'], // Mistral
  [/<\|START_ACTION\|>/, 'command_action'], // Command R / R7B
  [/<arg_key>/, 'glm'], // GLM-4.5 / 4.6
  [/<function=/, 'invoke_xml'], // Qwen3-Coder, Qwen3.5
  [/[<＜][|｜]tool[▁_]calls?[▁_](section[▁_])?begin[|｜]>|[<＜][|｜]tool[▁_]call[▁_]begin[|｜]>/, 'sentinel'], // DeepSeek, Kimi
  [/<tool_call>|<\|tool_call\|>/, 'tagged_json'], // Hermes, Qwen2.5/3, QwQ, Granite
  [/>>>all|'>>>'|">>>"/, 'tagged_json'], // Functionary v3.2 recipients
  // Llama 3.x JSON calls: its instruction text, or a rendered call (`"parameters": {"query"`, the
  // probe tool's argument; a dumped tool list has `"parameters": {"type"` or `{"properties"` there).
  [/<\|python_tag\|>|"parameters": dictionary|"parameters":\s*\{\s*"query"/, 'bare_json'],
];

/** The grammar a template's text teaches, or `undefined` when no known marker is in it. @internal */
export function detectCallGrammar(text: string): CallGrammar | undefined {
  for (const [pattern, grammar] of MARKERS) if (pattern.test(text)) return grammar;
  return undefined;
}
