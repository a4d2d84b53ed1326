export { ChatTemplateError, type ChatTemplateFailure } from './errors/chat-template-error.js';
export { LocalServerProbeError } from './errors/local-server-probe-error.js';
export { autoProfile } from './server/auto-profile.js';
export {
  type LocalServerKind,
  type LocalServerProbe,
  type ProbeLocalServerOptions,
  probeLocalServer,
} from './server/probe-local-server.js';
export {
  type ChatTemplateReasoning,
  type ChatTemplateReport,
  type InspectChatTemplateOptions,
  inspectChatTemplate,
} from './template/inspect-chat-template.js';
