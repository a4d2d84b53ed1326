import { useChat } from '@ai-sdk/react';
import {
  getToolOrDynamicToolName,
  isToolOrDynamicToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { type FormEvent, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './app.css';

type Part = UIMessage['parts'][number];
type ToolPart = Extract<Part, { toolCallId: string }>;

/** A progress report as the server streams it (a `data-tool-progress` part). */
interface Progress {
  readonly toolCallId?: string;
  readonly message?: string;
  readonly fraction?: number;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A tool result for display: JSON text (what tools usually return) pretty-printed, other text as is. */
function display(value: unknown): string {
  if (typeof value !== 'string') return json(value);
  try {
    return json(JSON.parse(value));
  } catch {
    return value;
  }
}

function progressOf(part: Part): Progress | undefined {
  if (part.type !== 'data-tool-progress') return undefined;
  const data = (part as { data?: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as Progress) : undefined;
}

function ProgressLine({ progress }: { progress: Progress }) {
  const percent = typeof progress.fraction === 'number' ? Math.round(progress.fraction * 100) : undefined;
  return (
    <li data-testid="progress">
      {percent !== undefined && <progress max={100} value={percent} />} {progress.message ?? ''}
    </li>
  );
}

function ToolCard({
  part,
  progress,
  redacted,
  onDecide,
}: {
  part: ToolPart;
  progress: readonly Progress[];
  redacted: boolean;
  onDecide: (id: string, approved: boolean) => void;
}) {
  const name = getToolOrDynamicToolName(part as Parameters<typeof getToolOrDynamicToolName>[0]);
  return (
    <div className="tool" data-testid="tool" data-tool={name} data-state={part.state} data-call-id={part.toolCallId}>
      <div className="tool-head">
        <span className="tool-name">{name}</span>
        <span className={`state state-${part.state}`}>{part.state}</span>
      </div>
      {part.input !== undefined && (
        <pre className="tool-input" data-testid="tool-input">
          {json(part.input)}
        </pre>
      )}
      {redacted && (
        <div className="redacted-note" data-testid="redacted-note">
          Sensitive arguments are hidden from this page ([redacted]); the tool gets them.
        </div>
      )}
      {progress.length > 0 && (
        <ul className="progress">
          {progress.map((line, index) => (
            // Progress lines only ever append, so their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
            <ProgressLine key={index} progress={line} />
          ))}
        </ul>
      )}
      {part.state === 'approval-requested' && (
        <div className="approval" data-testid="approval">
          <span>This tool has side effects and needs your approval.</span>
          <button type="button" className="approve" onClick={() => onDecide(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" className="deny" onClick={() => onDecide(part.approval.id, false)}>
            Deny
          </button>
        </div>
      )}
      {part.state === 'approval-responded' && (
        <div className="approval-note">{part.approval.approved ? 'Approved: running…' : 'Denied: sending…'}</div>
      )}
      {part.state === 'output-available' && (
        <pre className="tool-output" data-testid="tool-output">
          {display(part.output)}
        </pre>
      )}
      {part.state === 'output-error' && (
        <pre className="tool-error" data-testid="tool-error">
          {part.errorText}
        </pre>
      )}
      {part.state === 'output-denied' && (
        <div className="tool-denied" data-testid="tool-denied">
          Denied{part.approval.reason ? `: ${part.approval.reason}` : ''}. The tool did not run.
        </div>
      )}
    </div>
  );
}

function MessageView({ message, onDecide }: { message: UIMessage; onDecide: (id: string, approved: boolean) => void }) {
  // Progress parts carrying a call id go under that call; others are shown where they arrive.
  const progressByCall = new Map<string, Progress[]>();
  // Calls whose arguments hold sensitive fields (a `data-tool-input-redacted` part names each).
  const redactedCalls = new Set<string>();
  for (const part of message.parts) {
    if (part.type === 'data-tool-input-redacted') {
      const id = (part as { data?: { toolCallId?: unknown } }).data?.toolCallId;
      if (typeof id === 'string') redactedCalls.add(id);
    }
    const progress = progressOf(part);
    if (progress?.toolCallId !== undefined) {
      progressByCall.set(progress.toolCallId, [...(progressByCall.get(progress.toolCallId) ?? []), progress]);
    }
  }
  return (
    <article className={`message ${message.role}`} data-testid={`message-${message.role}`}>
      <div className="role">{message.role === 'user' ? 'You' : 'Assistant'}</div>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'text') {
          return (
            <p key={key} className="text" data-testid="text">
              {part.text}
            </p>
          );
        }
        if (part.type === 'reasoning') {
          return (
            <details key={key} className="reasoning">
              <summary>Reasoning</summary>
              {part.text}
            </details>
          );
        }
        if (isToolOrDynamicToolUIPart(part)) {
          return (
            <ToolCard
              key={key}
              part={part}
              progress={progressByCall.get(part.toolCallId) ?? []}
              redacted={redactedCalls.has(part.toolCallId)}
              onDecide={onDecide}
            />
          );
        }
        const progress = progressOf(part);
        if (progress !== undefined && progress.toolCallId === undefined) {
          return (
            <ul key={key} className="progress">
              <ProgressLine progress={progress} />
            </ul>
          );
        }
        return null;
      })}
    </article>
  );
}

function App({ modelDescription }: { modelDescription: string }) {
  const [input, setInput] = useState('');
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    // The default transport: POST /api/chat, the UI message stream (SSE) back.
    // After the last approval of a turn is answered, the chat sends the conversation back by itself.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const busy = status === 'submitted' || status === 'streaming';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (text === '' || busy) return;
    void sendMessage({ text });
    setInput('');
  };
  const onDecide = (id: string, approved: boolean) => {
    void addToolApprovalResponse({ id, approved, ...(approved ? {} : { reason: 'Denied in the chat page' }) });
  };
  return (
    <main>
      <header>
        <h1>tiny web chat</h1>
        <p className="model">Model: {modelDescription}</p>
      </header>
      <section className="messages" data-testid="messages">
        {messages.length === 0 && <p className="hint">Try: “My order A-17 arrived broken. Can I get a refund?”</p>}
        {messages.map((message) => (
          <MessageView key={message.id} message={message} onDecide={onDecide} />
        ))}
      </section>
      {error !== undefined && (
        <p className="error" data-testid="error">
          {error.message}
        </p>
      )}
      <form onSubmit={onSubmit}>
        <input
          aria-label="Message"
          placeholder="Ask about an order…"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit" className="send" disabled={busy || input.trim() === ''}>
          Send
        </button>
        <span className="status" data-testid="status" data-status={status}>
          {status}
        </span>
      </form>
    </main>
  );
}

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <App modelDescription={root.dataset.model ?? ''} />
    </StrictMode>,
  );
}
