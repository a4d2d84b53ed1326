// Stores big artifacts in SQLite one after another, printing each reference once `put` resolved,
// until the parent SIGKILLs it. Imports the built package by name.
import { SqliteArtifactStore } from '@tiny/ledger-sqlite';

const [path, runId, size, count] = process.argv.slice(2);
const store = new SqliteArtifactStore({ path });
const bytes = Buffer.alloc(Number(size));
for (let at = 0; at < bytes.length; at += 4096) bytes.writeUInt32LE((at * 2654435761) >>> 0, at);
process.stdout.write('ready\n');
for (let n = 0; n < Number(count); n++) {
  bytes.writeUInt32LE(n, 0);
  const ref = await store.put(bytes, { mediaType: 'application/octet-stream', name: `blob-${n}.bin`, runId, callId: `c${n}` });
  process.stdout.write(`${JSON.stringify(ref)}\n`);
}
