/**
 * Standard conformance tests for `@tiny/llm` provider adapters, with a replay server for recorded wire traffic.
 * @module @tiny/provider-tests
 */
export {
  CONFORMANCE_CASES,
  type ConformanceCase,
  conformanceRequests,
  ERROR_ENVELOPE_SCRIPT,
  ERROR_MAPPING_SCRIPT,
  FIXTURE_ONLY_CASES,
  MID_STREAM_ERROR_MESSAGE,
  SPLICE_CLASSES,
  timeTool,
  weatherReportSchema,
  weatherTool,
} from './conformance/conformance-requests.js';
export { type ConformanceOptions, describeConformance } from './conformance/describe-conformance.js';
export { streamOrderViolations } from './conformance/stream-order-violations.js';
export { subsetMismatches } from './replay/match-subset.js';
export {
  type LoadedReplayFixture,
  loadReplayFixture,
  type ReplayExchange,
  type ReplayFixture,
  type ReplayRequestExpectation,
  type ReplayResponse,
} from './replay/replay-fixture.js';
export { type RecordedRequest, type ReplayServer, startReplayServer } from './replay/replay-server.js';
export { partsOf, replayParts } from './replay/stream-parts.js';
export { type ReplayServerHandle, useReplayServer } from './replay/use-replay-server.js';
export { type AnswerServerHandle, type ServedAnswer, useAnswerServer } from './suites/answer-server.js';
export {
  type AnswerClassesOptions,
  type AnswerClassesWire,
  describeAnswerClasses,
} from './suites/describe-answer-classes.js';
export {
  type BrokenStreamsOptions,
  type BrokenStreamsWire,
  describeBrokenStreams,
} from './suites/describe-broken-streams.js';
export {
  describeHeaderSecrets,
  type HeaderSecretsOptions,
  openAIShapedAuthError,
  type SuiteAdapterSettings,
  type SuiteModelFactory,
} from './suites/describe-header-secrets.js';
export {
  describeHostileServer,
  type EncodedTurn,
  type HostileServerLimits,
  type HostileServerOptions,
  type HostileServerWire,
} from './suites/describe-hostile-server.js';
export {
  type CleanSplice,
  describeSpliceClasses,
  type SpliceClassesOptions,
  type SpliceClassesWire,
} from './suites/describe-splice-classes.js';
export { type LoopbackHandler, type LoopbackServer, useLoopbackServer } from './suites/loopback-server.js';
