// The agent loop arrives with the LOOP issue. Until then this package offers what its users
// already need from one import: the error classes of the layers below (STYLE.md: each layer
// re-exports the errors beneath it).
export {
  TinyError,
  ToolInputError,
  ToolNotFoundError,
  ModelRetry,
  ToolFailedError,
  ApprovalRequiredError,
  CallDeferredError,
  ToolTimeoutError,
  ToolDefinitionError,
  InjectedArgumentError,
  InvalidToolPolicyError,
} from '@tiny/tools';
