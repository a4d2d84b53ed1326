// Workload 3b (issue 35 target, carried from HARDEN item 12): the stream scrubber's cost per byte
// when a stream arrives one character at a time against 64 characters at a time, on clean prose and
// on call-heavy text (Hermes `<tool_call>` blocks between lines of prose). Each input is fed whole
// through a fresh `createStreamScrubber` (then flushed) per sample; the two feed sizes of one input
// are sampled in rotation, and the target reads their ratio round by round (`pairedRatio`):
// 1-character cost per byte ≤ 2× the 64-character cost.
import { createStreamScrubber } from '@tiny/llm';
import { nowUs, pairedRatio, sampleInRotation } from '../stats.mjs';
import { addToolSchema, toolCallText } from './parsing-inputs.mjs';

const tools = [addToolSchema];

/** Prose without any character a grammar could start a block with, `bytes` long. */
function cleanText(bytes) {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `Sentence ${i} of plain prose, with commas and numbers ${i * 7}. `;
  return text.slice(0, bytes);
}

/** The input cut into `size`-character fragments. */
function fragmentsOf(text, size) {
  const fragments = [];
  for (let at = 0; at < text.length; at += size) fragments.push(text.slice(at, at + size));
  return fragments;
}

/** Feeds every fragment through a fresh scrubber and flushes it; returns the released calls. */
function scrub(fragments) {
  const scrubber = createStreamScrubber({ tools });
  let calls = 0;
  for (const fragment of fragments) calls += scrubber.feed(fragment).calls.length;
  return calls + scrubber.flush().calls.length;
}

/** A sampler of ns per byte for feeding `fragments`, batched to take ~5 ms, after a warm-up. */
function createSampler(fragments, bytes, expectedCalls, warmMs) {
  if (scrub(fragments) !== expectedCalls) throw new Error('the scrubber released an unexpected number of calls');
  for (const started = nowUs(); nowUs() - started < warmMs * 1000; ) scrub(fragments);
  let started = nowUs();
  scrub(fragments);
  const batch = Math.max(1, Math.ceil(5000 / Math.max(nowUs() - started, 0.5)));
  return () => {
    started = nowUs();
    for (let j = 0; j < batch; j++) scrub(fragments);
    return ((nowUs() - started) * 1000) / (batch * bytes);
  };
}

/** Runs the scrubber workload; `smoke` uses a small input and few rounds. */
export async function runScrubber({ smoke }) {
  const bytes = smoke ? 2_000 : 20_000;
  const settings = smoke ? { rounds: 3, budgetMs: 200, warmMs: 20 } : { rounds: 21, budgetMs: 6000, warmMs: 300 };
  const calls = toolCallText(bytes);
  const inputs = [
    { id: 'clean', label: 'clean prose', text: cleanText(bytes), calls: 0 },
    { id: 'call-heavy', label: 'call-heavy (<tool_call> blocks)', text: calls.text, calls: calls.calls },
  ];
  const rows = [];
  for (const input of inputs) {
    const sizes = [1, 64];
    const samplers = sizes.map((size) =>
      createSampler(fragmentsOf(input.text, size), input.text.length, input.calls, settings.warmMs),
    );
    globalThis.gc?.();
    const [oneChar, sixtyFour] = await sampleInRotation(samplers, settings);
    rows.push({
      input: input.id,
      label: input.label,
      bytes: input.text.length,
      nsPerByte1: oneChar,
      nsPerByte64: sixtyFour,
      // 1-character cost ÷ 64-character cost, round by round; the target reads this.
      ratio: pairedRatio(oneChar, sixtyFour),
    });
  }
  return { rows };
}
