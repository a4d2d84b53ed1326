import type { UIMessageChunk as AiUIMessageChunk } from 'ai';
import { expectTypeOf, test } from 'vitest';
import type { UIMessageChunk } from './ui-message-chunk.js';

test('every chunk this package writes is an ai@6 UIMessageChunk', () => {
  expectTypeOf<UIMessageChunk>().toExtend<AiUIMessageChunk>();
});

test('a chunk ai@6 does not know is refused', () => {
  expectTypeOf<{ type: 'tool-call-streaming-start'; toolCallId: string }>().not.toExtend<AiUIMessageChunk>();
});
