import type { Message } from '@tiny/llm';
import { InvalidInputError } from '@tiny/tools';

const roles = new Set(['system', 'user', 'assistant', 'tool']);

/**
 * Checks that `messages` is a message list before a run starts: an array of objects with a known
 * role, string content or parts with a string type (text and reasoning parts with string text), tool messages with a call id, assistant tool calls with ids and
 * string arguments. Deeper content is the provider's to judge.
 * @throws {InvalidInputError} naming the first bad message.
 * @internal
 */
export function assertMessages(entryPoint: string, messages: unknown): asserts messages is readonly Message[] {
  const fail = (reason: string): never => {
    throw new InvalidInputError({ entryPoint, reason });
  };
  if (!Array.isArray(messages)) fail('messages must be an array');
  for (const [index, message] of (messages as unknown[]).entries()) {
    if (typeof message !== 'object' || message === null) fail(`message ${index} is not an object`);
    const { role, content } = message as Record<string, unknown>;
    if (typeof role !== 'string' || !roles.has(role)) fail(`message ${index} has an unknown role`);
    if (typeof content !== 'string' && !Array.isArray(content)) fail(`message ${index} needs string or array content`);
    if (Array.isArray(content))
      for (const part of content as unknown[]) {
        const { type, text } = (part ?? {}) as Record<string, unknown>;
        if (typeof part !== 'object' || part === null || typeof type !== 'string')
          fail(`message ${index} has a content part that is not an object with a string type`);
        if ((type === 'text' || type === 'reasoning') && typeof text !== 'string')
          fail(`message ${index} has a ${type} part without string text`);
      }
    if (role === 'tool' && typeof (message as { toolCallId?: unknown }).toolCallId !== 'string') {
      fail(`tool message ${index} needs a string toolCallId`);
    }
    const calls = (message as { toolCalls?: unknown }).toolCalls;
    if (calls !== undefined) {
      if (!Array.isArray(calls)) fail(`message ${index} has toolCalls that are not an array`);
      for (const call of calls as unknown[]) {
        const { id, name, arguments: args } = (call ?? {}) as Record<string, unknown>;
        if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') {
          fail(`message ${index} has a tool call without a string id, name and arguments`);
        }
      }
    }
  }
}
