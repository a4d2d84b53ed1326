import { readdirSync, readFileSync } from 'node:fs';
import type { ToolSchema } from '../../spec/tool-schema.js';
import type { CallSource } from '../parse-types.js';

/** One recorded model output and what the parser must make of it. */
export interface CorpusCase {
  readonly id: string;
  readonly family: string;
  readonly input: string;
  /** Offered tools: a bare name stands for a tool with an open object schema. */
  readonly tools?: ReadonlyArray<string | ToolSchema>;
  readonly note?: string;
  /** Where the output was transcribed from (a public test suite, a chat template, a model card). */
  readonly origin?: string;
  readonly expected: {
    /**
     * The calls, in order. An invalid call (arguments stated but not an object) has `invalid: true`
     * and its raw argument text as `arguments`.
     */
    readonly calls: ReadonlyArray<{
      name: string;
      arguments: Record<string, unknown> | string;
      source?: CallSource;
      invalid?: true;
    }>;
    readonly text?: string;
    readonly diagnostics?: readonly string[];
  };
}

const directory = new URL('./corpus/', import.meta.url);

/** Every corpus case, family files in name order. */
export function loadCorpus(): CorpusCase[] {
  const files = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort();
  return files.flatMap((file) => JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as CorpusCase[]);
}

/** The `ToolSchema`s a case offers. */
export function toolsOf(entry: CorpusCase): ToolSchema[] | undefined {
  return entry.tools?.map((tool) =>
    typeof tool === 'string' ? { name: tool, description: '', parameters: { type: 'object' } } : tool,
  );
}
