import type { LanguageModelV1Request, Message } from '@tiny/llm';
import type { AgentEvent } from '../events/agent-event.js';

/** A request's prompt prefix as the JSON texts of its parts: tools, leading system messages, later messages. */
function sections(request: LanguageModelV1Request): { tools: string[]; system: string; history: string[] } {
  const messages: readonly Message[] = request.messages;
  let systemEnd = 0;
  while (messages[systemEnd]?.role === 'system') systemEnd += 1;
  return {
    tools: (request.tools ?? []).map((tool) => JSON.stringify(tool)),
    system: JSON.stringify(messages.slice(0, systemEnd)),
    history: messages.slice(systemEnd).map((message) => JSON.stringify(message)),
  };
}

const startsWith = (whole: readonly string[], start: readonly string[]) =>
  start.length <= whole.length && start.every((part, index) => whole[index] === part);

/**
 * Whether `next` keeps `previous`'s prompt prefix byte for byte: its tool declarations start with
 * the previous ones, its system messages are the same, and its messages after them start with the
 * previous ones (appending tools or messages keeps the prefix).
 */
export function extendsPrefix(previous: LanguageModelV1Request, next: LanguageModelV1Request): boolean {
  const before = sections(previous);
  const after = sections(next);
  return (
    startsWith(after.tools, before.tools) && before.system === after.system && startsWith(after.history, before.history)
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
