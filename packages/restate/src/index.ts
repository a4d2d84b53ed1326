/**
 * Run `@tiny/harness` agents on Restate: every model call and tool execution a journaled step, approvals as durable promises.
 * @module @tiny/restate
 */
export { RestateAgentClient, type RestateClientOptions, type ResultOptions } from './client/restate-agent-client.js';
export { AdminApiError } from './errors/admin-api-error.js';
export { type DecisionRefusal, DecisionRefusedError } from './errors/decision-refused-error.js';
export { IngressError } from './errors/ingress-error.js';
export { JournaledStepError } from './errors/journaled-step-error.js';
export { LocalRestateServerError, type LocalRestateServerProblem } from './errors/local-restate-server-error.js';
export { ResultTimeoutError } from './errors/result-timeout-error.js';
export { restateIdempotencyKey } from './idempotency/restate-idempotency-key.js';
export {
  type DeploymentInfo,
  type LocalRestateServer,
  type LocalRestateServerOptions,
  registerDeployment,
  repointDeployment,
  startLocalRestateServer,
} from './server/local-restate-server.js';
export {
  type RestateEndpoint,
  type ServeRestateEndpointOptions,
  serveRestateEndpoint,
} from './server/serve-restate-endpoint.js';
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
