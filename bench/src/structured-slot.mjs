// Workload 4: streaming partial structured output. 1,000 deltas of a JSON document; after each
// delta the consumer reads the partial value. Ours: @tiny/structured's incremental parser (each
// delta costs time in proportion to its own length). AI SDK: `parsePartialJson` on everything
// received so far, which is how its `streamObject` reads partial objects (re-parsing grows with the
// text). Baseline: one `JSON.parse` of the final document, timed in alternation with ours after
// both are warmed up (ratios in one run, load falling on both alike).
import { createPartialJsonParser } from '@tiny/structured';
import { parsePartialJson } from 'ai';

/** A document of about `bytes` bytes shaped like a typical structured answer. */
function fixture(bytes) {
  const items = [];
  const document = { title: 'Quarterly report', generatedAt: '2025-01-01T00:00:00Z', items };
  for (let n = 0; JSON.stringify(document).length < bytes; n += 1) {
    items.push({
      id: n,
      name: `Item number ${n}`,
      description: `A short description of item ${n}, with "quotes" and unicode \u00e9.`,
      price: Math.round(n * 137.31) / 100,
      inStock: n % 3 !== 0,
      tags: ['alpha', 'beta', n % 2 === 0 ? 'even' : 'odd'],
      dimensions: { width: n % 17, height: (n * 7) % 23, unit: 'cm' },
    });
  }
  return JSON.stringify(document);
}

function deltas(text, count) {
  const size = Math.ceil(text.length / count);
  const pieces = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = (samples) => ({ medianMs: median(samples), minMs: Math.min(...samples), maxMs: Math.max(...samples) });

async function time(run, rounds) {
  await run();
  const samples = [];
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return summary(samples);
}

/**
 * Times `a` and `b` in alternation, after warming both up for at least `warmMs` (so neither is
 * measured before the JIT has compiled it), so that load on a shared machine falls on both alike.
 */
function timePair(a, b, rounds, warmMs) {
  for (const started = performance.now(); performance.now() - started < warmMs; ) {
    a();
    b();
  }
  const samplesA = [];
  const samplesB = [];
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    a();
    samplesA.push(performance.now() - started);
    started = performance.now();
    b();
    samplesB.push(performance.now() - started);
  }
  return [summary(samplesA), summary(samplesB)];
}

/** Runs workload 4 and returns rows per document size. */
export async function runStructuredStreaming({ smoke = false } = {}) {
  const sizes = smoke ? [5_000, 50_000] : [5_000, 50_000, 500_000];
  const rows = [];
  for (const bytes of sizes) {
    const text = fixture(bytes);
    const pieces = deltas(text, 1000);
    const rounds = smoke ? 3 : bytes >= 500_000 ? 15 : 41;
    const expected = JSON.stringify(JSON.parse(text));
    const [ours, once] = timePair(
      () => {
        const parser = createPartialJsonParser();
        let reads = 0;
        for (const piece of pieces) {
          parser.push(piece);
          if (parser.value !== undefined) reads += 1;
        }
        if (reads === 0) throw new Error('no partial value');
        return parser.end();
      },
      () => JSON.parse(text),
      rounds,
      smoke ? 50 : 500,
    );
    {
      const parser = createPartialJsonParser();
      for (const piece of pieces) parser.push(piece);
      if (JSON.stringify(parser.end()) !== expected) throw new Error('incremental parser disagrees');
    }
    const aiSdk = await time(
      async () => {
        let received = '';
        let last;
        for (const piece of pieces) {
          received += piece;
          last = (await parsePartialJson(received)).value;
        }
        if (JSON.stringify(last) !== expected) throw new Error('parsePartialJson disagrees');
      },
      smoke || bytes >= 500_000 ? 1 : 5,
    );
    rows.push({
      bytes: text.length,
      deltas: pieces.length,
      ours,
      aiSdk,
      jsonParse: once,
      oursVsJsonParse: ours.medianMs / once.medianMs,
      oursVsAiSdk: ours.medianMs / aiSdk.medianMs,
    });
  }
  return { status: 'measured', reason: '1,000 deltas; partial value read after each', rows };
}
