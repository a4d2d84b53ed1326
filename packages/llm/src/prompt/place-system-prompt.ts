import type { Message, TextPart, UserMessage } from '../messages/message.js';

/**
 * Where a model's chat template takes the system prompt: `system` (a system message, the
 * default) or `first_user` (the template has no system role, as Gemma 2, Falcon and ChatGLM:
 * the system text goes into the first user turn).
 */
export type SystemPromptPlacement = 'system' | 'first_user';

/** Between the system text and the user text of a merged turn. */
const SEPARATOR = '\n\n';

/** The text parts of a system message, in order (blank ones dropped). */
function systemParts(message: Message): TextPart[] {
  if (typeof message.content === 'string')
    return message.content.trim() === '' ? [] : [{ type: 'text', text: message.content }];
  return (message.content as readonly TextPart[]).filter((part) => part.type === 'text' && part.text.trim() !== '');
}

function joined(parts: readonly TextPart[]): string {
  return parts.map((part) => part.text).join(SEPARATOR);
}

/** `user` with `parts` put before its content (`before`) or after it. */
function withSystemText(user: UserMessage, parts: readonly TextPart[], before: boolean): UserMessage {
  const text = joined(parts);
  if (typeof user.content === 'string') {
    if (user.content === '') return { ...user, content: text };
    return { ...user, content: before ? `${text}${SEPARATOR}${user.content}` : `${user.content}${SEPARATOR}${text}` };
  }
  const part: TextPart = { type: 'text', text };
  return { ...user, content: before ? [part, ...user.content] : [...user.content, part] };
}

/**
 * Places the system prompt where the model's chat template can take it. With `system` the list
 * is returned as it is (a new array). With `first_user` no system message is left and no text is
 * lost: the text of each run of system messages (string or text parts, blank ones dropped, joined
 * by blank lines) is put at the start of the next user turn: the first user turn for the leading
 * system prompt and tool instructions, or the continuation turn `ensureResolvableUserTurn`
 * inserted. When an assistant or tool turn comes first, the text is appended to the user turn just
 * before it, or, when there is none (the conversation opens with an assistant turn), becomes a
 * user turn of its own in its place, so a template that wants a user turn first gets one.
 * Messages are not mutated.
 */
export function placeSystemPrompt(
  messages: readonly Message[],
  placement: SystemPromptPlacement = 'system',
): Message[] {
  if (placement === 'system' || !messages.some((message) => message.role === 'system')) return [...messages];
  const output: Message[] = [];
  let pending: TextPart[] = [];
  const flushBefore = (): void => {
    if (pending.length === 0) return;
    const last = output[output.length - 1];
    if (last?.role === 'user') output[output.length - 1] = withSystemText(last, pending, false);
    else output.push({ role: 'user', content: joined(pending) });
    pending = [];
  };
  for (const message of messages) {
    if (message.role === 'system') {
      pending.push(...systemParts(message));
      continue;
    }
    if (message.role === 'user' && pending.length > 0) {
      output.push(withSystemText(message, pending, true));
      pending = [];
      continue;
    }
    flushBefore();
    output.push(message);
  }
  flushBefore();
  return output;
}
