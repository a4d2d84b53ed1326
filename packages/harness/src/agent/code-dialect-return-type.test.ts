import { messageText } from '@tiny/llm';
import { defineTool, ToolPolicy } from '@tiny/tools';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../testkit/index.js';
import { AgentHarness } from './agent-harness.js';

const weather = defineTool({
  name: 'weather',
  description: 'Forecast for a city.',
  parameters: Type.Object({ city: Type.String() }),
  outputSchema: Type.Object({ celsius: Type.Number(), sunny: Type.Boolean() }),
  policy: ToolPolicy.readOnly(),
  execute: () => ({ celsius: 20, sunny: true }),
});
const echo = defineTool({
  name: 'echo',
  description: 'Echo.',
  parameters: Type.Object({ text: Type.String() }),
  execute: ({ text }) => text,
});

async function catalogue(dialect: 'python' | 'typescript'): Promise<string> {
  const model = new ScriptedModel({ steps: [{ content: 'done' }] });
  await new AgentHarness({ model, tools: [weather, echo], policy: { toolDialect: dialect } }).invoke({}, [
    { role: 'user', content: 'go' },
  ]);
  return (model.requests[0]?.messages ?? []).map(messageText).join('\n');
}

describe('code dialect catalogues of tools with an output schema', () => {
  it('typescript: the declared return type, string for a tool without one', async () => {
    const text = await catalogue('typescript');
    expect(text).toContain(
      'function weather(city: string): { celsius: number; sunny: boolean };  // Forecast for a city.',
    );
    expect(text).toContain('function echo(text: string): string;  // Echo.');
  });

  it('python: the declared return type, str for a tool without one', async () => {
    const text = await catalogue('python');
    expect(text).toContain('def weather(city: str) -> dict  # Forecast for a city.');
    expect(text).toContain('def echo(text: str) -> str  # Echo.');
  });
});
