import {
  type ConformanceCase,
  describeConformance,
  loadReplayFixture,
  type ReplayServer,
  startReplayServer,
} from '@tiny/provider-tests';
import { afterAll, beforeAll } from 'vitest';
import { openai } from './presets/openai.js';

const secret = 'sk-conformance-0123456789';
let server: ReplayServer;

beforeAll(async () => {
  server = await startReplayServer();
});
afterAll(async () => {
  await server.close();
});

describeConformance({
  name: 'openai preset over recorded OpenAI traffic',
  mode: 'fixture',
  secret,
  model(testCase: ConformanceCase) {
    server.load(loadReplayFixture(new URL(`./__fixtures__/conformance/${testCase}.json`, import.meta.url)));
    const provider = openai({ baseURL: `${server.url}/v1`, apiKey: secret });
    // A fresh provider per case, so nothing learnt in one case leaks into the next.
    return testCase === 'prompt_guided'
      ? provider('gpt-4o-mini', { profile: { toolCalling: false } })
      : provider('gpt-4o-mini');
  },
  requestsReceived: (count) => server.waitForRequests(count),
  afterCase() {
    server.assertDone();
  },
});
