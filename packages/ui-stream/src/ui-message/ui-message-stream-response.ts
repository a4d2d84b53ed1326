import type { AgentRunStream } from '@tiny/harness';
import { describeErrorName } from '../run/describe-run-error.js';
import { type NodeResponseLike, pipeResponseToNode, type SseEnding, toSseBytes } from '../sse/sse.js';
import { toUIMessageStream, type UIStreamOptions } from './to-ui-message-stream.js';
import type { UIMessageChunk } from './ui-message-chunk.js';

/** The headers of an AI SDK UI message stream response (`UI_MESSAGE_STREAM_HEADERS` of `ai@6`). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};

/** A UI message stream that failed while being written ends with an `error` chunk and `finish`. */
const UI_SSE_ENDING: SseEnding = {
  failed: (error) => [
    { type: 'error', errorText: `${describeErrorName(error)}: the stream could not be written.` },
    { type: 'finish', finishReason: 'error' },
  ],
  isEnd: (value) => (value as { type?: unknown } | null)?.type === 'finish',
};

/** Options of the response helpers: the stream's, plus the response's status and extra headers. */
export interface UIStreamResponseOptions extends UIStreamOptions {
  readonly status?: number | undefined;
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** A `Response` whose body is `chunks` as the AI SDK's server-sent events (then `data: [DONE]`). @internal */
export function chunksToResponse(
  chunks: ReadableStream<UIMessageChunk>,
  options: {
    readonly status?: number | undefined;
    readonly headers?: Readonly<Record<string, string>> | undefined;
  } = {},
): Response {
  return new Response(toSseBytes(chunks, 'data: [DONE]\n\n', UI_SSE_ENDING), {
    status: options.status ?? 200,
    headers: { ...(options.headers ?? {}), ...UI_MESSAGE_STREAM_HEADERS },
  });
}

/**
 * {@link toUIMessageStream} as a fetch `Response` (Next.js route handlers, Hono, Bun, Deno): the
 * chunks as server-sent events with the AI SDK's headers (`x-vercel-ai-ui-message-stream: v1`).
 */
export function toUIMessageStreamResponse(run: AgentRunStream, options: UIStreamResponseOptions = {}): Response {
  return chunksToResponse(toUIMessageStream(run, options), options);
}

/**
 * {@link toUIMessageStreamResponse} written to a Node `http.ServerResponse`. Resolves when the
 * body is written or the client went away (then the stream stops reading the run).
 */
export function pipeUIMessageStreamToNodeResponse(
  run: AgentRunStream,
  res: NodeResponseLike,
  options: UIStreamResponseOptions = {},
): Promise<void> {
  return pipeResponseToNode(toUIMessageStreamResponse(run, options), res);
}
