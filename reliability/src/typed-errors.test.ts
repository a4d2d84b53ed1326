import { AgentHarness, DeferredToolResults, InMemoryToolEffectLedger, parseRunState } from '@tiny/harness';
import { ScriptedModel, scriptedToolCall } from '@tiny/harness/testkit';
import { coerceToSchema } from '@tiny/llm';
import { defineTool, TinyError } from '@tiny/tools';
import { describe, expect, it } from 'vitest';

const user = [{ role: 'user' as const, content: 'go' }];

async function typedError(run: () => unknown, place: RegExp): Promise<TinyError> {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  expect(TinyError.isInstance(thrown), `untyped: ${String(thrown)}`).toBe(true);
  expect((thrown as Error).message).toMatch(place);
  return thrown as TinyError;
}

const toolCalling = () =>
  new ScriptedModel({ steps: [{ toolCalls: [scriptedToolCall('t', {}, 'a')] }, { content: 'x' }] });
const t = defineTool({ name: 't', description: '', parameters: { type: 'object' }, execute: () => 'ok' });

describe('the untyped errors of the adversarial probe are typed, naming the bad value', () => {
  it.each([
    [
      'invoke(null, messages)',
      () => new AgentHarness({ model: toolCalling() }).invoke(null as never, user),
      /`context`/,
    ],
    [
      "toolDialect: 'klingon'",
      () => new AgentHarness({ model: toolCalling(), policy: { toolDialect: 'klingon' as never } }),
      /`policy\.toolDialect`/,
    ],
    [
      "per-run toolDialect: 'klingon'",
      () =>
        new AgentHarness({ model: toolCalling() }).invoke({}, user, { policy: { toolDialect: 'klingon' as never } }),
      /`options\.policy\.toolDialect`/,
    ],
    ['respond(id, null)', () => new DeferredToolResults().respond('c1', null as never), /respond: `result`/],
    [
      'deny(id, {toString: null})',
      () => new DeferredToolResults().deny('c1', { toString: null } as never),
      /deny: `message`/,
    ],
    [
      'a throwing onEvent listener',
      () =>
        new AgentHarness({ model: toolCalling(), tools: [t] }).invoke({}, user, {
          onEvent: () => {
            throw new Error('listener bug');
          },
        }),
      /`onEvent` listener threw on a `run_started` event: listener bug/,
    ],
    [
      'a throwing onCheckpoint listener',
      () =>
        new AgentHarness({ model: toolCalling(), tools: [t] }).invoke({}, user, {
          onCheckpoint: () => {
            throw { toString: null };
          },
        }),
      /`onCheckpoint` listener threw/,
    ],
    [
      'ScriptedModel.doStream with undefined arguments',
      () =>
        new ScriptedModel({ steps: [{ toolCalls: [{ id: 'a', name: 't', arguments: undefined }] }] }).doStream({
          messages: [],
        }),
      /toolCalls\[0\]\.arguments/,
    ],
    ['coerceToSchema({a: 1}, null)', () => coerceToSchema({ a: 1 }, null as never), /coerceToSchema: `schema`/],
  ])('%s', async (_name, run, place) => {
    await typedError(run, place);
  });

  it('a checkpoint with a duplicated call id is refused, and resume runs nothing', async () => {
    const lines: string[] = [];
    const append = defineTool({
      name: 'append',
      description: '',
      parameters: { type: 'object' },
      execute: () => {
        lines.push('x');
        return 'ok';
      },
    });
    const ledger = new InMemoryToolEffectLedger();
    const model = new ScriptedModel({
      steps: [{ toolCalls: [scriptedToolCall('append', {}, 'a1')] }, { content: 'ok' }],
    });
    let checkpoint: unknown;
    await new AgentHarness({ model, tools: [append], ledger }).invoke({ runId: 'dup' }, user, {
      onCheckpoint: (state) => {
        checkpoint = JSON.parse(JSON.stringify(state));
      },
    });
    expect(lines).toEqual(['x']);
    const tampered = checkpoint as { messages: { toolCalls?: unknown[] }[] };
    const assistant = tampered.messages.at(-1) as { toolCalls: unknown[] };
    assistant.toolCalls.push(assistant.toolCalls[0]);
    await typedError(() => parseRunState(tampered), /appears twice/);
    const resumed = new AgentHarness({
      model: new ScriptedModel({ steps: [{ content: 'x' }] }),
      tools: [append],
      ledger,
    });
    await typedError(() => resumed.resume({}, tampered as never), /appears twice/);
    expect(lines).toEqual(['x']);
  });
});
