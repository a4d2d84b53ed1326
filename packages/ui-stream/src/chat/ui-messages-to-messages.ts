import type { AssistantToolCall, Message, ToolMessage } from '@tiny/harness';
import { InvalidInputError } from '@tiny/tools';

/** A UI message as `useChat` sends it (`UIMessage` of `ai@6`), as much of it as the server reads. */
export interface ChatUIMessage {
  readonly id: string;
  readonly role: 'system' | 'user' | 'assistant';
  readonly parts: readonly ChatUIPart[];
  readonly metadata?: unknown;
}

/** A part of a {@link ChatUIMessage}; tool parts are `tool-<name>` or `dynamic-tool`. */
export interface ChatUIPart {
  readonly type: string;
  readonly [key: string]: unknown;
}

const ENTRY = 'handleChatRequest';

function fail(reason: string): never {
  throw new InvalidInputError({ entryPoint: ENTRY, reason });
}

/** Reads `messages` from a request body, checking the shape the server relies on. */
export function readUIMessages(value: unknown): ChatUIMessage[] {
  if (!Array.isArray(value)) fail('`messages` must be an array of UI messages');
  return value.map((message, index) => {
    if (typeof message !== 'object' || message === null) fail(`\`messages[${index}]\` must be an object`);
    const { id, role, parts } = message as Record<string, unknown>;
    if (role !== 'system' && role !== 'user' && role !== 'assistant')
      fail(`\`messages[${index}].role\` must be system, user or assistant`);
    if (!Array.isArray(parts)) fail(`\`messages[${index}].parts\` must be an array`);
    for (const [at, part] of parts.entries())
      if (typeof part !== 'object' || part === null || typeof (part as { type?: unknown }).type !== 'string')
        fail(`\`messages[${index}].parts[${at}]\` must be an object with a string \`type\``);
    return { ...(message as object), id: typeof id === 'string' ? id : '', role, parts } as ChatUIMessage;
  });
}

/** The tool name of a tool part (`tool-<name>`, or a `dynamic-tool` part's `toolName`), else `undefined`. */
export function toolPartName(part: ChatUIPart): string | undefined {
  if (part.type === 'dynamic-tool') return typeof part.toolName === 'string' ? part.toolName : undefined;
  return part.type.startsWith('tool-') ? part.type.slice('tool-'.length) : undefined;
}

function outputText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** One assistant step (the parts between two `step-start`s): its message, then its tool answers. */
function assistantStep(parts: readonly ChatUIPart[]): Message[] {
  const text = parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('');
  const calls: AssistantToolCall[] = [];
  const answers: ToolMessage[] = [];
  for (const part of parts) {
    const name = toolPartName(part);
    const id = part.toolCallId;
    if (name === undefined || typeof id !== 'string') continue;
    // Only answered calls enter the transcript; an unanswered one would be a broken tool cycle.
    let answer: { content: string; isError: boolean } | undefined;
    if (part.state === 'output-available') answer = { content: outputText(part.output), isError: false };
    else if (part.state === 'output-error') answer = { content: outputText(part.errorText), isError: true };
    else if (part.state === 'output-denied') {
      const reason = (part.approval as { reason?: unknown } | undefined)?.reason;
      answer = { content: typeof reason === 'string' ? reason : 'The user denied this call.', isError: true };
    }
    if (answer === undefined) continue;
    calls.push({ id, name, arguments: JSON.stringify(part.input ?? {}) });
    answers.push({ role: 'tool', toolCallId: id, toolName: name, content: answer.content, isError: answer.isError });
  }
  if (text === '' && calls.length === 0) return [];
  return [{ role: 'assistant', content: text, ...(calls.length > 0 ? { toolCalls: calls } : {}) }, ...answers];
}

/**
 * Converts `useChat` messages to a tiny transcript: user text (and file/image parts by URL) as user
 * messages; each assistant step as an assistant message with its answered tool calls, followed by
 * their tool messages. System messages from the client are dropped (the server owns instructions),
 * and so are reasoning, data and unanswered tool parts. The transcript is the client's: a call in
 * it never runs again (only the model's new calls are admitted), so a forged history changes what
 * the model reads, as with any chat backend, never what runs.
 */
export function uiMessagesToMessages(messages: readonly ChatUIMessage[]): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      const content: ({ type: 'text'; text: string } | Record<string, unknown>)[] = [];
      for (const part of message.parts) {
        if (part.type === 'text' && typeof part.text === 'string') content.push({ type: 'text', text: part.text });
        else if (part.type === 'file' && typeof part.url === 'string' && typeof part.mediaType === 'string') {
          const data = { kind: 'url', value: part.url };
          content.push(
            part.mediaType.startsWith('image/')
              ? { type: 'image', mediaType: part.mediaType, data }
              : { type: 'file', mediaType: part.mediaType, data },
          );
        }
      }
      const onlyText = content.every((part) => part.type === 'text');
      out.push({
        role: 'user',
        content: onlyText ? content.map((part) => (part as { text: string }).text).join('') : (content as never),
      });
      continue;
    }
    let step: ChatUIPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'step-start') {
        out.push(...assistantStep(step));
        step = [];
      } else step.push(part);
    }
    out.push(...assistantStep(step));
  }
  return out;
}
