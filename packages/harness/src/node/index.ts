/**
 * Node-only parts of `@tiny/harness`: checkpoint stores on the file system.
 * @module @tiny/harness/node
 */
// Node.js-only helpers (`node:fs`), kept out of the runtime-neutral main entry.

export {
  type ArtifactScan,
  createFileArtifactStore,
  type FileArtifactStore,
  type FileArtifactStoreOptions,
} from './file-artifact-store.js';
export { createFileCheckpointStore, type FileCheckpointStoreOptions } from './file-checkpoint-store.js';
