import type { ToolResult } from '@tiny/tools';

/** How one executed call ended. @internal */
export type CallOutcome =
  | {
      readonly kind: 'result';
      readonly result: ToolResult;
      readonly startedAt: number;
      readonly durationMs: number;
      /** The result stands for something `execute` threw (ModelRetry, ToolFailedError, the error policy), or for a result that cannot be serialised. */
      readonly threw?: boolean;
      /** The call's secrets (expanded), when it has any: scrubbed again from the text the model reads, once joined and cut. */
      readonly secrets?: readonly string[];
    }
  | {
      readonly kind: 'defer';
      readonly approval: boolean;
      readonly reason: string;
      readonly metadata: unknown;
      readonly startedAt: number;
      readonly durationMs: number;
    }
  | { readonly kind: 'fatal'; readonly error: unknown; readonly startedAt: number; readonly durationMs: number };
