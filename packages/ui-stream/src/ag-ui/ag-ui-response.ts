import type { AgentRunStream } from '@tiny/harness';
import { toSseBytes } from '../sse/sse.js';
import { type AgUiStreamOptions, toAgUiEvents } from './to-ag-ui-events.js';

/**
 * {@link toAgUiEvents} as a fetch `Response`: one `data: <json>\n\n` server-sent event per AG-UI
 * event (what `@ag-ui/encoder` writes for `text/event-stream`), `content-type: text/event-stream`.
 */
export function toAgUiResponse(
  run: AgentRunStream,
  options: AgUiStreamOptions & { readonly headers?: Readonly<Record<string, string>> | undefined } = {},
): Response {
  return new Response(toSseBytes(toAgUiEvents(run, options), ''), {
    headers: {
      ...(options.headers ?? {}),
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    },
  });
}
