import type { AgentRunStream } from '@tiny/harness';
import { readRun } from '../run/read-run.js';
import type { AgUiEvent } from './ag-ui-event.js';
import type { AgUiStreamOptions } from './ag-ui-stream-options.js';
import { AgUiWriter } from './ag-ui-writer.js';

export type { AgUiStreamOptions } from './ag-ui-stream-options.js';

/**
 * The AG-UI events of a harness run, as a `ReadableStream` (also async-iterable on Node 20):
 * `RUN_STARTED`, a `STEP_STARTED`/`STEP_FINISHED` per model turn, text messages, tool calls
 * (`TOOL_CALL_START`/`ARGS`/`END`, then `TOOL_CALL_RESULT`), tool progress and tool events as
 * `CUSTOM` (`tool_progress`, `tool_event`), a `STATE_SNAPSHOT` of the tools' state updates, and
 * `RUN_FINISHED` (the final text as `result`, usage), or `RUN_FINISHED` with an `interrupt`
 * outcome naming each approval (the interrupt id is the approval id), or `cancelled`, or
 * `RUN_ERROR` (`code`: the `ModelCallError.kind`). Redaction as in `toUIMessageStream`.
 */
export function toAgUiEvents(run: AgentRunStream, options: AgUiStreamOptions = {}): ReadableStream<AgUiEvent> {
  const writer = new AgUiWriter(options);
  const source = readRun(run);
  let done = false;
  return new ReadableStream<AgUiEvent>({
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
      for (const event of writer.out.splice(0)) controller.enqueue(event);
      if (done && writer.out.length === 0) controller.close();
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}
