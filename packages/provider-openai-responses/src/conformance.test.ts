import {
  type ConformanceCase,
  describeConformance,
  loadReplayFixture,
  type ReplayServer,
  startReplayServer,
} from '@tiny/provider-tests';
import { afterAll, beforeAll } from 'vitest';
import { openaiResponses } from './presets/openai.js';

const secret = 'sk-conformance-0123456789';
let server: ReplayServer;

beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

describeConformance({
  name: 'openaiResponses preset over recorded Responses API traffic',
  mode: 'fixture',
  secret,
  model(testCase: ConformanceCase) {
    server.load(loadReplayFixture(new URL(`./__fixtures__/conformance/${testCase}.json`, import.meta.url)));
    return openaiResponses({ baseURL: `${server.url}/v1`, apiKey: secret })('gpt-5.1');
  },
  requestsReceived: (count) => server.waitForRequests(count),
  afterCase() {
    server.assertDone();
  },
  skip: {
    prompt_guided:
      'every server speaking the Responses API takes native function tools; a model without them is driven through a text dialect by the harness (profile toolCalling: false)',
  },
});
