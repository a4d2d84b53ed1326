import {
  RestateAgentClient,
  type RestateAgentResult,
  registerDeployment,
  serveRestateEndpoint,
  startLocalRestateServer,
} from '@tiny/restate';
import { refundAgent } from './refund-agent.js';

/**
 * Starts a local restate-server (127.0.0.1, free ports, temporary data dir), serves the agent from
 * this process, starts a run that pauses on an approval, approves it through the ingress like any
 * other process would, and returns the result. Everything is stopped and removed at the end.
 */
export async function runDurableApproval(log: (line: string) => void = console.log): Promise<RestateAgentResult> {
  const server = await startLocalRestateServer();
  // 127.0.0.1 only (the default): unsigned handlers must not face the network.
  const worker = await serveRestateEndpoint({ services: [refundAgent], host: '127.0.0.1' }).catch(async (error) => {
    await server.stop();
    throw error;
  });
  try {
    const workerUrl = worker.url;
    await registerDeployment(server.adminUrl, workerUrl);
    log(`restate-server: ingress ${server.ingressUrl}, admin ${server.adminUrl}; worker ${workerUrl}`);

    const client = new RestateAgentClient({ ingressUrl: server.ingressUrl, service: 'refund-agent' });
    const runId = `refund-${Date.now()}`;
    await client.start(runId, { messages: [{ role: 'user', content: 'Refund order A-17, please.' }] });
    const pending = await client.waitForPending(runId);
    for (const call of pending.calls)
      log(`waiting for a human: ${call.toolName}(${JSON.stringify(call.arguments)}) [${call.callId}]`);

    // Any process can do this: POST <ingress>/refund-agent/<runId>/decide
    for (const call of pending.calls) await client.decide(runId, call.callId, { kind: 'approve' });
    log('approved through the ingress');

    const result = await client.result(runId);
    log(`result (${result.outcome}): ${result.text}`);
    return result;
  } finally {
    // Stop the server first: it holds HTTP/2 connections to the worker open.
    await server.stop();
    await worker.close();
  }
}
