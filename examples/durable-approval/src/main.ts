// Quieter SDK logs for the demo (set RESTATE_LOGGING=INFO to see every invocation).
process.env.RESTATE_LOGGING ??= 'WARN';
const { runDurableApproval } = await import('./run-demo.js');

try {
  await runDurableApproval();
} catch (error) {
  console.error(`the demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
