import { InvalidInputError, type JsonSchema, stripHostAnnotations } from '@tiny/tools';
import { cleanSchema } from '../schema/clean-schema.js';
import type { ModelProfile } from '../spec/model-profile.js';
import type { ToolChoice } from '../spec/tool-choice.js';
import type { ToolSchema } from '../spec/tool-schema.js';

/** The `json_schema` name a constrained call request carries (`response_format.json_schema.name`). */
export const CALL_ENVELOPE_SCHEMA_NAME = 'tool_call_envelope';

/** The key of the plain-answer branch of a call envelope: `{"answer": "…"}`. */
export const CALL_ENVELOPE_ANSWER_KEY = 'answer';

/**
 * The JSON Schema of one valid reply of a prompt-guided model under constrained decoding: a
 * `oneOf` with one branch per tool the choice allows, `{"name": <const>, "arguments": <the tool's
 * parameters>}`, and for `auto` also the plain-answer branch `{"answer": string}`. `required`
 * and a named tool have no answer branch, so a server that enforces the schema cannot answer in
 * prose. The parameters are the model-facing schemas the request offers (injected values are
 * never in them), with tiny's host-side `x-tiny-*` keywords removed and local `$ref`s inlined (then
 * `$ref`/`$defs` dropped), since each schema is nested under the envelope's root.
 *
 * @throws {InvalidInputError} for `none` (nothing may be called), no tools, or a named tool that is not offered.
 */
export function callEnvelopeSchema(tools: readonly ToolSchema[], choice: ToolChoice = { type: 'auto' }): JsonSchema {
  const entryPoint = 'callEnvelopeSchema';
  if (choice.type === 'none')
    throw new InvalidInputError({
      entryPoint,
      reason: 'a `none` tool choice has no call envelope: nothing may be called',
    });
  if (tools.length === 0) throw new InvalidInputError({ entryPoint, reason: 'no tools are offered' });
  const allowed = choice.type === 'tool' ? tools.filter((tool) => tool.name === choice.toolName) : tools;
  if (allowed.length === 0)
    throw new InvalidInputError({
      entryPoint,
      reason: `the forced tool ${JSON.stringify(choice.type === 'tool' ? choice.toolName : '')} is not among the offered tools`,
    });
  const branches: JsonSchema[] = allowed.map((tool) => ({
    type: 'object',
    properties: {
      name: { const: tool.name },
      arguments: cleanSchema(stripHostAnnotations(tool.parameters), 'anthropic'),
    },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
  if (choice.type === 'auto')
    branches.push({
      type: 'object',
      properties: { [CALL_ENVELOPE_ANSWER_KEY]: { type: 'string' } },
      required: [CALL_ENVELOPE_ANSWER_KEY],
      additionalProperties: false,
    });
  return { oneOf: branches };
}

/** What a constrained reply said: one call (arguments as written, unchecked) or a plain answer. */
export type CallEnvelope =
  | { readonly kind: 'call'; readonly name: string; readonly arguments: unknown }
  | { readonly kind: 'answer'; readonly text: string };

/**
 * Reads a reply written under {@link callEnvelopeSchema}: the whole text (whitespace aside) must be
 * one JSON object with a string `name` and an `arguments` member, or only a string `answer`.
 * Anything else (prose, a fenced block, extra keys, JSON that does not parse) is `undefined`, and
 * the caller reads the text as it would without constraints. The call's name and arguments are
 * returned as the model wrote them: it is the caller's admission that refuses an unknown name or
 * arguments that fail the tool's schema (they are never replaced by defaults).
 */
export function readCallEnvelope(text: string): CallEnvelope | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && typeof record[CALL_ENVELOPE_ANSWER_KEY] === 'string')
    return { kind: 'answer', text: record[CALL_ENVELOPE_ANSWER_KEY] };
  if (keys.length === 2 && typeof record.name === 'string' && record.name !== '' && 'arguments' in record)
    return { kind: 'call', name: record.name, arguments: record.arguments };
  return undefined;
}

/**
 * Whether a prompt-guided request with this choice should carry the call envelope
 * (`ModelProfile.constrainedCalls`): never for `none` or without tools; `true` or `false` as the
 * profile says; when the profile does not say, only for a forced choice (`required` or a named
 * tool) on a model whose server enforces schemas (`structuredOutput: 'json_schema'`).
 */
export function shouldConstrainCalls(
  profile: Pick<ModelProfile, 'constrainedCalls' | 'structuredOutput'>,
  choice: ToolChoice | undefined,
  toolCount: number,
): boolean {
  if (toolCount === 0 || choice?.type === 'none') return false;
  if (profile.constrainedCalls !== undefined) return profile.constrainedCalls;
  const forced = choice?.type === 'required' || choice?.type === 'tool';
  return forced && profile.structuredOutput === 'json_schema';
}
