import { describe, expect, it } from 'vitest';
import { foldToolResults } from '../envelope/fold-tool-results.js';
import type { Message } from '../messages/message.js';
import { CONTINUATION_PROMPT, ensureResolvableUserTurn } from './ensure-resolvable-user-turn.js';

const system: Message = { role: 'system', content: 'sys' };
const assistant: Message = { role: 'assistant', content: 'working' };
const continuation: Message = { role: 'user', content: CONTINUATION_PROMPT };

describe('ensureResolvableUserTurn', () => {
  it('keeps a history that has a real user turn', () => {
    const history: Message[] = [system, { role: 'user', content: 'hi' }, assistant];
    expect(ensureResolvableUserTurn(history)).toEqual(history);
  });

  it('inserts the continuation right after the leading system messages', () => {
    const history: Message[] = [system, system, assistant];
    expect(ensureResolvableUserTurn(history)).toEqual([system, system, continuation, assistant]);
    expect(ensureResolvableUserTurn([assistant])).toEqual([continuation, assistant]);
    expect(ensureResolvableUserTurn([])).toEqual([continuation]);
  });

  it('does not count folded tool-result turns, verbatim ones included', () => {
    const folded = foldToolResults([
      { name: 'a', output: 'one' },
      { name: 'skill', output: 'Do the thing.', trustedVerbatim: true },
    ]);
    const history: Message[] = [system, assistant, ...folded];
    expect(ensureResolvableUserTurn(history)).toEqual([system, continuation, assistant, ...folded]);
  });

  it('does not count blank user text, but counts an image-only user turn', () => {
    expect(ensureResolvableUserTurn([system, { role: 'user', content: '  \n' }])[1]).toEqual(continuation);
    const image: Message = {
      role: 'user',
      content: [{ type: 'image', mediaType: 'image/png', data: { kind: 'url', value: 'https://x/y.png' } }],
    };
    expect(ensureResolvableUserTurn([system, image])).toEqual([system, image]);
  });
});
