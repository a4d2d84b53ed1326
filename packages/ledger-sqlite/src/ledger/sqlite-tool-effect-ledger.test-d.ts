import type { ToolEffectLedger } from '@tiny/harness';
import { expectTypeOf, it } from 'vitest';
import type { SqliteToolEffectLedger } from './sqlite-tool-effect-ledger.js';

it('is a ToolEffectLedger an AgentHarness accepts', () => {
  expectTypeOf<SqliteToolEffectLedger>().toExtend<ToolEffectLedger>();
  expectTypeOf<SqliteToolEffectLedger['close']>().returns.toEqualTypeOf<Promise<void>>();
});
