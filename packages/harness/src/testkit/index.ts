export { eventsOfType, eventTypes, toolEventViolations } from './event-assertions.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
  scriptedInvalidToolCall,
  scriptedToolCall,
} from './scripted-model.js';
