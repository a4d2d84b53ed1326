import type { AgentHarness } from '@tiny/harness';
export declare function createScenario(options?: { resumed?: boolean }): {
  harness: AgentHarness;
  ledger: string[];
  // biome-ignore lint/suspicious/noExplicitAny: fixture typing
  model: any;
};
