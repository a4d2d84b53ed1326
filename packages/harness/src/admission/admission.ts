import type { ToolResult } from '@tiny/tools';
import type { PendingCall } from '../agent/loop-state.js';
import type { RegisteredTool } from '../registry/tool-registry.js';

/** How admission settled one call. */
export type Admission =
  /** Admitted: run `entry` with `args` (injected values included). `input` is what the model sent, for events. */
  | {
      readonly kind: 'execute';
      readonly call: PendingCall;
      readonly entry: RegisteredTool;
      readonly args: Record<string, unknown>;
      readonly input: unknown;
    }
  /** Answered without running the tool (a recovery): `result` goes back to the model. */
  | { readonly kind: 'answer'; readonly call: PendingCall; readonly toolName: string; readonly result: ToolResult }
  /** Left for the host: an approval or an externally executed call. */
  | {
      readonly kind: 'defer';
      readonly call: PendingCall;
      readonly toolName: string;
      readonly approval: boolean;
      readonly reason: string;
      readonly metadata?: unknown;
    };
