import { ToolResult } from '@tiny/tools';

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}

/**
 * Why a tool's result cannot reach the transcript, or `undefined` when it can: every JSON block
 * (content and follow-up) must serialise. A cyclic value, a `BigInt` or a value nested too deep
 * for `JSON.stringify` fails here, once, instead of later while the result is folded.
 * @internal
 */
export function unserializableReason(result: ToolResult): string | undefined {
  return unserializableBlock(result.content) ?? unserializableBlock(result.followUp);
}

function unserializableBlock(blocks: ToolResult['content']): string | undefined {
  // By index: a `for…of` here allocates an iterator per call (the `try` keeps it from being elided).
  for (let index = 0; index < blocks.length; index += 1) {
    const block = blocks[index] as ToolResult['content'][number];
    if (block.type !== 'json') continue;
    try {
      JSON.stringify(block.data);
    } catch (error) {
      return firstLine(error);
    }
  }
  return undefined;
}

/**
 * The error result that stands for a result that cannot be serialised. It names the tool and the
 * problem; it is answered to the model whatever the tool-error policy (the tool ran, but what it
 * returned cannot be sent), and its ledger row settles `failed`.
 * @internal
 */
export function unserializableResult(toolName: string, reason: string): ToolResult {
  return ToolResult.error(`tool \`${toolName}\` returned a result that cannot be serialised as JSON (${reason})`);
}
