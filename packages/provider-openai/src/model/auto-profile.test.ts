import { describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '../create-openai-compatible.js';
import { llamacpp } from '../presets/llamacpp.js';
import type { AutoProfiler, AutoProfileTarget } from './auto-profile.js';

/** A profiler that records its targets and answers with `profile` (the real one is `@tiny/local`'s). */
function recording(profile: Awaited<ReturnType<AutoProfiler>>['profile']) {
  const targets: AutoProfileTarget[] = [];
  const profiler: AutoProfiler = async (target) => {
    targets.push(target);
    return { server: 'llamacpp', contextLength: 4096, profile, notes: ['because'] };
  };
  return { profiler, targets };
}

let port = 20_000;
/** A fresh base URL per test (never contacted: the profiler is given), so the process-wide cache starts empty. */
function baseURL(): string {
  port += 1;
  return `http://127.0.0.1:${port}/v1`;
}

describe('autoProfile', () => {
  it('applies what the probe decided once it answered, and reports it to the first caller only', async () => {
    const { profiler, targets } = recording({
      toolCalling: false,
      systemPrompt: 'first_user',
      toolCallFormats: ['mistral'],
    });
    const url = baseURL();
    const model = llamacpp({ baseURL: url, autoProfile: profiler, headers: { authorization: 'Bearer x' } })('m');
    expect(model.profile).toMatchObject({ toolCalling: true, toolFormats: ['json'] });
    expect(model.profile.systemPrompt).toBeUndefined();
    const report = await model.profileModel();
    expect(report).toEqual({
      modelId: 'm',
      server: 'llamacpp',
      contextLength: 4096,
      toolCalling: false,
      systemPrompt: 'first_user',
      toolCallFormats: ['mistral'],
      reasons: ['because'],
    });
    expect(model.profile).toMatchObject({
      toolCalling: false,
      parallelToolCalls: false,
      toolFormats: [],
      systemPrompt: 'first_user',
      toolCallFormats: ['mistral'],
      structuredOutput: 'json_schema',
    });
    expect(model.profile).toBe(model.profile);
    expect(await model.profileModel()).toBeUndefined();
    expect(targets).toHaveLength(1);
    expect(targets[0]).toMatchObject({ baseURL: url, modelId: 'm', headers: { authorization: 'Bearer x' } });
  });

  it('probes once per profiler, base URL and model, also for concurrent callers and other providers', async () => {
    const { profiler, targets } = recording({ toolCalling: false });
    const url = baseURL();
    const one = createOpenAICompatible({ baseURL: url, autoProfile: profiler })('m');
    const two = createOpenAICompatible({ baseURL: url, autoProfile: profiler })('m');
    const reports = await Promise.all([one.profileModel(), two.profileModel(), one.profileModel()]);
    expect(reports.filter((report) => report !== undefined)).toHaveLength(1);
    expect(targets).toHaveLength(1);
    expect(two.profile.toolCalling).toBe(false);
    await createOpenAICompatible({ baseURL: url, autoProfile: profiler })('other').profileModel();
    expect(targets.map((target) => target.modelId)).toEqual(['m', 'other']);
  });

  it('lets an explicit systemPrompt setting win over the probe', async () => {
    const { profiler } = recording({ systemPrompt: 'first_user' });
    const model = llamacpp({ baseURL: baseURL(), autoProfile: profiler })('m', { systemPrompt: 'system' });
    expect((await model.profileModel())?.systemPrompt).toBe('system');
    expect(model.profile.systemPrompt).toBe('system');
  });

  it('rethrows an abort without remembering it, and keeps the profile after a failed probe', async () => {
    let calls = 0;
    const controller = new AbortController();
    const profiler: AutoProfiler = async ({ signal }) => {
      calls += 1;
      if (calls === 1) {
        controller.abort(new Error('stopped'));
        throw signal?.reason;
      }
      throw new Error('connection refused');
    };
    const model = llamacpp({ baseURL: baseURL(), autoProfile: profiler })('m');
    await expect(model.profileModel(controller.signal)).rejects.toThrow('stopped');
    const report = await model.profileModel();
    expect(calls).toBe(2);
    expect(report).toMatchObject({ server: 'unknown', toolCalling: true, systemPrompt: 'system' });
    expect(report?.reasons[0]).toContain('connection refused');
    expect(model.profile.toolCalling).toBe(true);
  });

  it("keeps the provider's header secrets out of a failed probe's reason", async () => {
    const token = 'tok-0a1b2c3d4e5f6a7b';
    // What fetch says of a header value it cannot send: it quotes the value.
    const profiler: AutoProfiler = async ({ headers }) => {
      throw new TypeError(`Headers.append: "${headers.authorization}\u0000x" is an invalid header value.`);
    };
    const model = llamacpp({
      baseURL: baseURL(),
      autoProfile: profiler,
      headers: { authorization: `Bearer ${token}` },
    })('m');
    const report = await model.profileModel();
    expect(report?.reasons[0]).toContain('probe failed');
    expect(JSON.stringify(report)).not.toContain(token);
  });

  it('is absent in effect without autoProfile', async () => {
    const model = llamacpp({ baseURL: baseURL() })('m');
    expect(await model.profileModel()).toBeUndefined();
  });
});
