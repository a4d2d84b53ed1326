import { AgentHarness } from '@tiny/harness';
import { ScriptedModel, scriptedRefusedToolCall, scriptedToolCall } from '@tiny/harness/testkit';
import { describe, expect, it } from 'vitest';
import { ResponseFormat } from '../format/response-format.js';
import { ask, Person, profiles } from './scripted-setup.test-helpers.js';
import { streamStructured } from './stream-structured.js';

// Found by the refused-call tester: streamStructured emitted partial values from the streamed
// arguments of an output call the adapter refused (two calls under one id, a cut-off stream), while
// invokeStructured (extractFromCall) never reads such a call as the answer. Partials of a tool
// call are now held until its model call ends and dropped when the call ended refused.

const person = ResponseFormat.auto({ name: 'person', schema: Person });
const REASON = 'tool call id `p1` names two calls; no call of it may run';
const ada = { name: 'Ada Lovelace', age: 36, nickname: 'The Enchantress of Numbers' };

describe('streamStructured and refused output calls', () => {
  for (const chunkSize of [3, 1000]) {
    it(`never yields a partial read from a refused call (chunks of ${chunkSize})`, async () => {
      const model = new ScriptedModel({
        steps: [
          {
            toolCalls: [scriptedRefusedToolCall('person', '{"name":"EVIL","age":1}', REASON, 'p1')],
            finishReason: 'tool_calls',
          },
          { toolCalls: [scriptedToolCall('person', ada, 'p2')] },
        ],
        profile: profiles.toolsOnly,
        chunkSize,
      });
      const harness = new AgentHarness({ model });
      const values: string[] = [];
      let final: unknown;
      for await (const part of streamStructured(harness, {}, ask, person)) {
        if (part.type === 'partial') values.push(JSON.stringify(part.value));
        else final = part.value;
      }
      expect(values.filter((value) => value.includes('EVIL'))).toEqual([]);
      expect(values.some((value) => value.includes('Ada'))).toBe(true);
      expect(final).toEqual(ada);
    });
  }
});
