import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { useReplayServer } from '@tiny/provider-tests';
import { describe, expect, it } from 'vitest';

const demo = fileURLToPath(new URL('../../../examples/quickstart/dist/main.js', import.meta.url));
const replay = useReplayServer(new URL('./__fixtures__/', import.meta.url));

describe.skipIf(!existsSync(demo))('the quickstart demo (built) against an OpenAI-compatible endpoint', () => {
  it('runs the agent over HTTP with OPENAI_BASE_URL set, and never sends the host secret', async () => {
    const baseURL = replay.load('quickstart/agent-run.json');
    const { stdout } = await promisify(execFile)(process.execPath, [demo], {
      env: {
        PATH: process.env.PATH,
        OPENAI_BASE_URL: baseURL,
        OPENAI_API_KEY: 'sk-quickstart-test',
        OPENAI_MODEL: 'gpt-4o-mini',
      },
      timeout: 100_000, // the demo's own net, inside the test's 120 s one
    });
    expect(stdout).toContain(`model: gpt-4o-mini at ${baseURL} (openai-compatible preset)`);
    expect(stdout).toContain('> weather [call_w1] {"city":"Oslo","days":2}');
    expect(stdout).toContain('final answer: Oslo will have light snow for two days. I saved a note and texted you.');
    expect(stdout).toContain('executed: weather, save_note, send_sms');
    expect(stdout).toContain('secret sent to the model: never');
  });
});
