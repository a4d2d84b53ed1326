import { describe, expect, it } from 'vitest';
import { AgentHarness } from '../agent/agent-harness.js';
import { MiddlewareError } from '../errors/middleware-error.js';
import { ScriptedModel } from '../testkit/index.js';
import type { AgentMiddleware, MiddlewareControl } from './agent-middleware.js';

// The messages of a `jump_to` control enter the history and are sent to the model: they are
// checked like the caller's messages, and a control that breaks them fails the run with MiddlewareError.

describe('jump_to messages of the wrong shape', () => {
  const cases: [string, unknown][] = [
    ['a number', [42]],
    ['null', [null]],
    ['an unknown role', [{ role: 'hacker', content: 'hi' }]],
    ['number content', [{ role: 'user', content: 5 }]],
    ['object content', [{ role: 'user', content: { text: 'hi' } }]],
    ['a text part without string text', [{ role: 'user', content: [{ type: 'text', text: () => 'hi' }] }]],
  ];
  for (const [name, messages] of cases) {
    it(`${name}: the run fails with MiddlewareError naming the hook, nothing sent to the model`, async () => {
      const model = new ScriptedModel({ steps: [{ content: 'first' }, { content: 'second' }] });
      let jumped = false;
      const middleware: AgentMiddleware = {
        name: 'jumper',
        afterModel: () => {
          if (jumped) return undefined;
          jumped = true;
          return { type: 'jump_to', target: 'model', messages } as MiddlewareControl;
        },
      };
      const error = await new AgentHarness({ model, middleware: [middleware] })
        .invoke('go')
        .catch((thrown: unknown) => thrown);
      expect(MiddlewareError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ middleware: 'jumper', hook: 'afterModel' });
      expect(model.calls).toBe(1);
    });
  }

  it('well-formed messages are sent to the model', async () => {
    const model = new ScriptedModel({ steps: [{ content: 'first' }, { content: 'second' }] });
    let jumped = false;
    const middleware: AgentMiddleware = {
      name: 'jumper',
      afterModel: () => {
        if (jumped) return undefined;
        jumped = true;
        return { type: 'jump_to', target: 'model', messages: [{ role: 'user', content: 'again' }] };
      },
    };
    const run = await new AgentHarness({ model, middleware: [middleware] }).invoke('go');
    expect(run.text).toBe('second');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('again');
  });
});
