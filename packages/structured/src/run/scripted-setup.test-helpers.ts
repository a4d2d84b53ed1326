import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, type ScriptedStep } from '@tiny/harness/testkit';
import type { LanguageModelV1, LanguageModelV1Request, Message, ModelProfile } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';

/** Profiles of each kind, for strategy tests. */
export const profiles = {
  native: { structuredOutput: 'json_schema', toolCalling: true },
  toolsOnly: { structuredOutput: 'none', toolCalling: true },
  textOnly: { structuredOutput: 'none', toolCalling: false },
} satisfies Record<string, Partial<ModelProfile>>;

export const Person = Type.Object({
  name: Type.String(),
  age: Type.Integer({ minimum: 0 }),
  nickname: Type.Optional(Type.String()),
});

export const weatherCalls: string[] = [];

export const weather = defineTool({
  name: 'weather',
  description: 'Look up the weather for a city.',
  parameters: Type.Object({ city: Type.String() }),
  policy: ToolPolicy.readOnly(),
  execute: ({ city }) => {
    weatherCalls.push(city);
    return `${city}: sunny, 21 C`;
  },
});

export const ask: Message[] = [{ role: 'user', content: 'Tell me about Ada.' }];

export function setup(steps: readonly ScriptedStep[], profile: Partial<ModelProfile>, withTools = false) {
  const model = new ScriptedModel({ steps, profile });
  const harness = new AgentHarness({ model, tools: withTools ? [weather] : [] });
  return { model, harness };
}

/** A model that rejects its first `failures` calls with `error`, then answers from `steps`. */
export function setupRejecting(
  failures: number,
  error: () => Error,
  steps: readonly ScriptedStep[],
  profile: Partial<ModelProfile>,
) {
  const scripted = new ScriptedModel({ steps, profile });
  const requests: LanguageModelV1Request[] = [];
  let calls = 0;
  const model: LanguageModelV1 = {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: 'rejecting',
    profile: scripted.profile,
    async doGenerate(request) {
      requests.push(request);
      calls += 1;
      if (calls <= failures) throw error();
      return scripted.doGenerate(request);
    },
    async doStream(request) {
      requests.push(request);
      calls += 1;
      if (calls <= failures) throw error();
      return scripted.doStream(request);
    },
  };
  const harness = new AgentHarness({ model });
  return { harness, requests, calls: () => calls };
}
