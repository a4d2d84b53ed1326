import type { AgentEvent, AgentRun, AgentRunStream } from '@tiny/harness';

/** How a run's event stream ended: with the run, or with the error its `result` rejected with. */
export type RunEnd =
  | { readonly type: 'run_end'; readonly run: AgentRun }
  | { readonly type: 'run_error'; readonly error: unknown };

/**
 * Every event of `run` in order, then one {@link RunEnd}. Never throws: an error while reading
 * (the run's own failure included) becomes the final `run_error`.
 */
export async function* readRun(run: AgentRunStream): AsyncGenerator<AgentEvent | RunEnd, void, undefined> {
  try {
    for await (const event of run) yield event;
  } catch (error) {
    yield { type: 'run_error', error };
    return;
  }
  try {
    yield { type: 'run_end', run: await run.result };
  } catch (error) {
    yield { type: 'run_error', error };
  }
}

/** A short random id prefix, unique per stream (part ids of two streams of one message never collide). */
export function streamPrefix(): string {
  return globalThis.crypto.randomUUID().slice(0, 8);
}

/** A fresh unguessable id (approval ids, message ids). */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
}
