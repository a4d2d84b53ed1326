import {
  type ConformanceCase,
  describeConformance,
  loadReplayFixture,
  type ReplayServer,
  startReplayServer,
} from '@tiny/provider-tests';
import { afterAll, beforeAll } from 'vitest';
import { createGoogle } from './create-google.js';

const secret = 'AIza-conformance-0123456789';
let server: ReplayServer;

beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

describeConformance({
  name: 'Gemini API over recorded generateContent traffic',
  mode: 'fixture',
  secret,
  model(testCase: ConformanceCase) {
    server.load(loadReplayFixture(new URL(`./__fixtures__/conformance/${testCase}.json`, import.meta.url)));
    return createGoogle({ baseURL: `${server.url}/v1beta`, apiKey: secret })('gemini-2.5-flash');
  },
  requestsReceived: (count) => server.waitForRequests(count),
  afterCase() {
    server.assertDone();
  },
  skip: {
    repaired_arguments:
      'Gemini sends functionCall.args as a JSON object (whole, or assembled from typed partialArgs values), never as text to repair',
    prompt_guided:
      'every Gemini model takes native function declarations; a model without them is driven through a text dialect by the harness (profile toolCalling: false)',
    refusal:
      'Gemini has no refusal field: a withheld answer is a SAFETY (or other) finishReason or a promptFeedback.blockReason, mapped to content_filter in finish-reasons.test.ts',
  },
});
