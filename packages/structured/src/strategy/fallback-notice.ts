import type { AgentEventOf } from '@tiny/harness';

/** An `output_fallback` event waiting to be emitted on the next run's first model turn. @internal */
export type FallbackNotice = AgentEventOf<'output_fallback'>;
