/**
 * Test helpers for `@tiny/harness`: `ScriptedModel`, a language model that replays scripted steps
 * (no network, no weights), and assertions over the events of a run.
 * @module @tiny/harness/testkit
 */
export { eventsOfType, eventTypes, toolEventViolations } from './event-assertions.js';
export { extendsPrefix, prefixViolations } from './prefix-assertions.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedStep,
  scriptedInvalidToolCall,
  scriptedRefusedToolCall,
  scriptedToolCall,
} from './scripted-model.js';
