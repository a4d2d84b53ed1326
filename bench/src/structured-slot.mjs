// Workload 4: streaming partial structured output. @tiny/structured has no streaming parser yet,
// so this slot reports itself as pending; fill it in once the STRUCTURED work lands (same shape as
// the other workloads: rows with an id, `ours`, and medians with min/max).

/** The pending slot: no figures, one status line for the table. */
export function runStructuredStreaming() {
  return {
    status: 'pending STRUCTURED',
    reason: 'the streaming partial structured-output API of @tiny/structured does not exist yet',
    rows: [],
  };
}
