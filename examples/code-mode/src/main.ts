import { withCodeMode, withoutCodeMode } from './compare.js';

// Warm the QuickJS module and both paths once, so the timings compare steady states.
await withCodeMode();
await withoutCodeMode();
const plain = await withoutCodeMode();
const code = await withCodeMode();
const row = (label: string, figures: typeof plain) =>
  `${label.padEnd(18)} ${String(figures.modelCalls).padStart(11)} ${String(figures.toolCalls).padStart(10)} ${String(figures.tokensSent).padStart(12)} ${figures.wallMs.toFixed(1).padStart(9)}`;
console.log('Task: 20 price look-ups, then the most expensive product and the total.\n');
console.log(
  `${'mode'.padEnd(18)} ${'model calls'.padStart(11)} ${'tool calls'.padStart(10)} ${'tokens sent'.padStart(12)} ${'wall ms'.padStart(9)}`,
);
console.log(row('20 turns', plain));
console.log(row('code mode, 1 turn', code));
console.log(`\nanswers agree: ${plain.answer === code.answer} (${code.answer})`);
console.log(
  'tokens sent: characters of every request (messages + tool specs) / 4; the scripted model answers instantly, so wall time is the harness and the sandbox.',
);
