import type { AgentEvent } from '../events/agent-event.js';
import type { AgentRun } from '../run/agent-run.js';

/**
 * The live events of a run as an async iterable, plus `result`, the finished run. Events are
 * buffered until read, so a slow reader loses nothing; iterate it once.
 */
export class AgentRunStream implements AsyncIterable<AgentEvent> {
  /** Resolves to the run when it ends; rejects with the run's error. */
  readonly result: Promise<AgentRun>;
  private readonly buffer: AgentEvent[] = [];
  private done = false;
  private wake: (() => void) | undefined;
  private settle!: { resolve: (run: AgentRun) => void; reject: (error: unknown) => void };

  constructor() {
    this.result = new Promise<AgentRun>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    this.result.catch(() => undefined);
  }

  /** @internal */
  readonly push = (event: AgentEvent): void => {
    this.buffer.push(event);
    this.wake?.();
  };

  /** @internal */
  attach(run: Promise<AgentRun>): void {
    run.then(
      (value) => {
        this.done = true;
        this.settle.resolve(value);
        this.wake?.();
      },
      (error: unknown) => {
        this.done = true;
        this.settle.reject(error);
        this.wake?.();
      },
    );
  }

  /** Yields every event of the run in order (buffered ones first), and ends when the run settles. */
  async *[Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    let read = 0;
    for (;;) {
      while (read < this.buffer.length) {
        yield this.buffer[read] as AgentEvent;
        read += 1;
      }
      if (this.done) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
