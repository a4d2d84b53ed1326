/** What an artifact is stored from: raw bytes, or text (stored as UTF-8). */
export type ArtifactData = Uint8Array | string;

/** What {@link ArtifactStore.put} records beside the bytes. */
export interface ArtifactPutOptions {
  /** The IANA media type of the bytes (`image/png`, `text/plain`, ...). */
  readonly mediaType: string;
  /** A file name for humans and hosts (`screenshot.png`); not unique. */
  readonly name: string;
  /** The run that produced it: {@link ArtifactStore.list} lists by run. */
  readonly runId: string;
  /** The tool call whose result it came from. */
  readonly callId: string;
}

/**
 * A reference to a stored artifact: plain JSON, safe to put in events, transcripts and run states
 * (it never holds the bytes). `uri` alone is enough to read it back (`tiny-artifact://<run>/<id>`).
 */
export interface ArtifactRef {
  /** `tiny-artifact://<URL-encoded run id>/<id>`: unique, stable across processes. */
  readonly uri: string;
  readonly name: string;
  readonly mediaType: string;
  /** Size of the stored bytes. */
  readonly bytes: number;
  /** Hex SHA-256 of the stored bytes; stores check it on every read. */
  readonly sha256: string;
  readonly runId: string;
  readonly callId: string;
}

/**
 * Where tool results too large (or too binary) for the model go. Configured on the harness
 * (`AgentHarnessOptions.artifacts`), it receives the image and file blocks of tool results and any
 * result over the tool's `runtime.maxResultBytes`; the model gets a reference line instead.
 *
 * A store must be atomic: `put` resolves with a reference only once the complete bytes are stored,
 * and a process killed during `put` leaves nothing that `get` or `list` returns. Implementations:
 * {@link InMemoryArtifactStore}, `createFileArtifactStore` (`@tiny/harness/node`) and
 * `SqliteArtifactStore` (`@tiny/ledger-sqlite`).
 */
export interface ArtifactStore {
  /** Stores the bytes (text as UTF-8) and returns their reference. */
  put(data: ArtifactData, options: ArtifactPutOptions): Promise<ArtifactRef>;
  /**
   * The stored bytes of a reference (or of its `uri`), or `undefined` when the store has none.
   * Rejects with `ArtifactUnreadableError` when the stored bytes do not match their recorded size and digest.
   */
  get(ref: ArtifactRef | string): Promise<Uint8Array | undefined>;
  /** The run's artifacts, in the order they were stored. */
  list(runId: string): Promise<ArtifactRef[]>;
}
