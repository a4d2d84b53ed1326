export { ChatTemplateError, type ChatTemplateFailure, type ChatTemplateLimit } from './errors/chat-template-error.js';
export { LocalServerProbeError } from './errors/local-server-probe-error.js';
export { autoProfile } from './server/auto-profile.js';
export {
  type LocalServerKind,
  type LocalServerProbe,
  type ProbeLocalServerOptions,
  probeLocalServer,
} from './server/probe-local-server.js';
export {
  type BoundedInspectChatTemplateOptions,
  type ChatTemplateReasoning,
  type ChatTemplateReport,
  type InspectChatTemplateOptions,
  inspectChatTemplate,
  inspectTrustedChatTemplate,
} from './template/inspect-chat-template.js';
