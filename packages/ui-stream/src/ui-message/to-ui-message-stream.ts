import type { AgentRunStream } from '@tiny/harness';
import { readRun } from '../run/read-run.js';
import { UIChunkWriter } from './ui-chunk-writer.js';
import type { UIMessageChunk } from './ui-message-chunk.js';
import type { UIStreamOptions } from './ui-stream-options.js';

export type { UIStreamOptions } from './ui-stream-options.js';

/**
 * The AI SDK 6 UI message stream of a harness run (`harness.stream(...)` or
 * `harness.streamResumeDeferred(...)`): what `useChat` reads. One assistant message: `start`, a
 * `start-step`/`finish-step` per model turn, text parts from the model's (scrubbed) text, tool parts
 * from the run's tool events, `data-tool-progress` parts, approval requests when the run pauses,
 * then `finish` with `{ runId, outcome, usage }` as message metadata. A failed run ends with an
 * `error` chunk then `finish` (`finishReason: 'error'`); a cancelled one with `abort` then `finish`.
 * What a chunk shows of a tool's input or output is what the run's events show (redacted; tool
 * inputs and outputs only with `policy.captureToolIo`, else `null`).
 *
 * Cancelling the returned stream stops reading the run (it does not cancel the run: pass a signal
 * in the run's context for that).
 */
export function toUIMessageStream(run: AgentRunStream, options: UIStreamOptions = {}): ReadableStream<UIMessageChunk> {
  const writer = new UIChunkWriter(options);
  writer.continue(options.continuedToolCallIds ?? []);
  writer.start();
  const source = readRun(run);
  let done = false;
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      while (writer.out.length === 0 && !done) {
        const next = await source.next();
        if (next.done) {
          done = true;
          break;
        }
        const item = next.value;
        if (item.type === 'run_end' || item.type === 'run_error') {
          try {
            await writer.end(item);
          } catch (error) {
            // The store refused to keep the paused run (nothing was written yet): no approval is offered.
            await writer.end({ type: 'run_error', error });
          }
        } else {
          try {
            writer.event(item);
          } catch (error) {
            // Nothing of the run reaches the client past a value the stream could not write.
            done = true;
            await source.return(undefined);
            await writer.end({ type: 'run_error', error });
          }
        }
      }
      const chunks = writer.out.splice(0);
      for (const chunk of chunks) controller.enqueue(chunk);
      if (done && writer.out.length === 0) controller.close();
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}
