import type { LanguageModelV1Request, Message } from '@tiny/llm';
import type { AgentEvent } from '../events/agent-event.js';

/** JSON with object keys sorted at every level (provider options compare by content). */
const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, node: unknown) => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(node).sort()) out[key] = (node as Record<string, unknown>)[key];
    return out;
  }) ?? 'null';

/**
 * A request's prompt prefix as JSON texts in wire order: each tool declaration (what is sent of
 * it: name, description, parameters, a non-default format), the settings (tool choice, response
 * format, provider options), then each other message; and apart, each system-role message with its
 * position (Anthropic and Google send them all as the system prompt, OpenAI in place).
 */
function wireParts(request: LanguageModelV1Request): { parts: string[]; systems: string[] } {
  const messages: readonly Message[] = request.messages;
  const systems: string[] = [];
  const history: string[] = [];
  for (const [index, message] of messages.entries())
    if (message.role === 'system') systems.push(`${index}:${JSON.stringify(message)}`);
    else history.push(`M${JSON.stringify(message)}`);
  const tools = (request.tools ?? []).map(
    (tool) =>
      `T${JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        format: tool.format === undefined || tool.format.type === 'json' ? undefined : tool.format,
      })}`,
  );
  const settings = `C${JSON.stringify([
    request.tools !== undefined && request.tools.length > 0 ? (request.toolChoice ?? null) : null,
    request.responseFormat ?? null,
  ])}${canonicalJson(request.providerOptions ?? {})}`;
  return { parts: [...tools, settings, ...history], systems };
}

/**
 * Whether `next` keeps `previous`'s prompt prefix byte for byte, in wire order (tools, system,
 * settings, messages): everything `previous` sent is sent again, in the same places, and `next`
 * only appends messages (a system message too, when it stands past `previous`'s last message). A
 * new tool, appended or not, breaks it (the system text and messages follow the tools on the wire).
 */
export function extendsPrefix(previous: LanguageModelV1Request, next: LanguageModelV1Request): boolean {
  const before = wireParts(previous);
  const after = wireParts(next);
  const end = previous.messages.length;
  return (
    before.parts.length <= after.parts.length &&
    before.parts.every((part, index) => after.parts[index] === part) &&
    before.systems.length <= after.systems.length &&
    before.systems.every((part, index) => after.systems[index] === part) &&
    after.systems.slice(before.systems.length).every((part) => Number.parseInt(part, 10) >= end)
  );
}

/**
 * Checks a run's recorded requests (a `ScriptedModel`'s `requests`, one per `model_started`, so no
 * retries) against its events: every request that does not extend the previous one's prefix has
 * exactly one `prompt_prefix_changed`, and no other request has one. Pass the requests and events
 * of a paused run and its resume together, in order. Returns one sentence per violation.
 */
export function prefixViolations(requests: readonly LanguageModelV1Request[], events: readonly AgentEvent[]): string[] {
  const started = events.flatMap((event) => (event.type === 'model_started' ? [event.modelCallId] : []));
  const changed = new Map<string, number>();
  for (const event of events)
    if (event.type === 'prompt_prefix_changed')
      changed.set(event.modelCallId, (changed.get(event.modelCallId) ?? 0) + 1);
  const violations: string[] = [];
  if (started.length !== requests.length)
    violations.push(`${requests.length} requests were recorded but ${started.length} model_started events`);
  for (let index = 0; index < Math.min(started.length, requests.length); index += 1) {
    const id = started[index] as string;
    const count = changed.get(id) ?? 0;
    changed.delete(id);
    const broke =
      index > 0 &&
      !extendsPrefix(requests[index - 1] as LanguageModelV1Request, requests[index] as LanguageModelV1Request);
    if (broke && count !== 1)
      violations.push(`request ${index} (${id}) changed the prefix with ${count} prompt_prefix_changed events`);
    if (!broke && count > 0)
      violations.push(`request ${index} (${id}) kept the prefix but has ${count} prompt_prefix_changed events`);
  }
  for (const id of changed.keys()) violations.push(`prompt_prefix_changed for ${id}, which has no model_started`);
  return violations;
}
