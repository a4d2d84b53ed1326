export { RestateAgentClient, type RestateClientOptions } from './client/restate-agent-client.js';
export { type DecisionRefusal, DecisionRefusedError } from './errors/decision-refused-error.js';
export { IngressError } from './errors/ingress-error.js';
export { JournaledStepError } from './errors/journaled-step-error.js';
export { restateIdempotencyKey } from './idempotency/restate-idempotency-key.js';
export {
  type LocalRestateServer,
  type LocalRestateServerOptions,
  registerDeployment,
  startLocalRestateServer,
} from './server/local-restate-server.js';
export {
  createRestateAgentService,
  type RestateAgentInput,
  type RestateAgentResult,
  type RestateAgentServiceOptions,
  type RestateInvokeOptions,
  type RestateRunContext,
} from './service/create-restate-agent-service.js';
export type {
  DecisionJson,
  DecisionReceipt,
  DecisionRequest,
  PendingDecisions,
} from './service/decisions.js';
