// Structured output arrives with the STRUCTURED issue. Until then this package offers what its users
// already need from one import: the error classes of the layers below (STYLE.md: each layer
// re-exports the errors beneath it).
export {
  ApprovalRequiredError,
  CallDeferredError,
  InjectedArgumentError,
  InvalidToolPolicyError,
  ModelRetry,
  TinyError,
  ToolDefinitionError,
  ToolFailedError,
  ToolInputError,
  ToolNotFoundError,
  ToolTimeoutError,
} from '@tiny/tools';
