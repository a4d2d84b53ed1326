// Cancellation latency: abort a run at a random point (model call, admission hook, tool execution,
// deferred resume) and measure the time from abort() to the run's rejection.
// Run: pnpm --filter @tiny/reliability bench   (after pnpm build)
import { AgentHarness, DeferredToolResults } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { defineTool, ToolPolicy } from '@tiny/tools';

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

function world() {
  const slow = defineTool({
    name: 'slow',
    description: '',
    parameters: { type: 'object', properties: { n: { type: 'integer' } } },
    execute: async (_args, context) => {
      await sleep(20, context.signal);
      return 'ok';
    },
  });
  const gated = defineTool({
    name: 'gated',
    description: '',
    parameters: { type: 'object' },
    policy: ToolPolicy.classified().requiringApproval(),
    execute: async (_args, context) => {
      await sleep(20, context.signal);
      return 'ok';
    },
  });
  const hook = { name: 'slow_hook', beforeTool: async () => sleep(5).then(() => undefined) };
  const model = new ScriptedModel({
    recordRequests: false,
    repeatLast: true,
    steps: [
      async (request) => {
        await sleep(15, request.abortSignal);
        return {
          toolCalls: [
            scriptedToolCall('slow', { n: 1 }),
            scriptedToolCall('gated', {}),
            scriptedToolCall('slow', { n: 2 }),
          ],
        };
      },
    ],
  });
  return new AgentHarness({
    model,
    tools: [slow, gated],
    middleware: [hook],
    limits: { maxModelCalls: 1000, maxToolCalls: 10000 },
  });
}

const latencies = [];
for (let i = 0; i < 300; i++) {
  const harness = world();
  const controller = new AbortController();
  let run;
  if (i % 3 === 2) {
    const paused = await harness.invoke({}, [{ role: 'user', content: 'go' }]);
    run = harness.resumeDeferred(
      { signal: controller.signal },
      paused.state,
      new DeferredToolResults().approveAll(paused.deferred),
    );
  } else {
    run = harness.invoke({ signal: controller.signal }, [{ role: 'user', content: 'go' }]);
  }
  await sleep(Math.random() * 120);
  const abortedAt = performance.now();
  controller.abort(new Error('stop'));
  await run.catch(() => undefined);
  latencies.push(performance.now() - abortedAt);
}
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
console.log(
  `cancellation latency over ${latencies.length} aborts: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1).toFixed(2)} ms`,
);
