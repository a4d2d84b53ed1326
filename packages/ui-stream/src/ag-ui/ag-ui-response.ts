import type { AgentRunStream } from '@tiny/harness';
import { describeErrorName } from '../run/describe-run-error.js';
import { type SseEnding, toSseBytes } from '../sse/sse.js';
import { type AgUiStreamOptions, toAgUiEvents } from './to-ag-ui-events.js';

/** An AG-UI stream that failed while being written ends with `RUN_ERROR`. */
const AG_UI_SSE_ENDING: SseEnding = {
  failed: (error) => [{ type: 'RUN_ERROR', message: `${describeErrorName(error)}: the stream could not be written.` }],
  isEnd: (value) => {
    const type = (value as { type?: unknown } | null)?.type;
    return type === 'RUN_FINISHED' || type === 'RUN_ERROR';
  },
};

/**
 * {@link toAgUiEvents} as a fetch `Response`: one `data: <json>\n\n` server-sent event per AG-UI
 * event (what `@ag-ui/encoder` writes for `text/event-stream`), `content-type: text/event-stream`.
 */
export function toAgUiResponse(
  run: AgentRunStream,
  options: AgUiStreamOptions & { readonly headers?: Readonly<Record<string, string>> | undefined } = {},
): Response {
  return new Response(toSseBytes(toAgUiEvents(run, options), '', AG_UI_SSE_ENDING), {
    headers: {
      ...(options.headers ?? {}),
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    },
  });
}
