import type { JsonValue } from '../validation/json-schema.js';

/**
 * What a tool asks the loop to do after its result is folded in.
 * `returnDirect` is tri-state: absent means "no opinion" (the tool's static `returnDirect` decides),
 * an explicit `false` overrides a tool that returns directly by default.
 */
export interface ToolControl {
  readonly returnDirect?: boolean;
  /** End the run after this batch; the tool output becomes the final response. */
  readonly terminate?: boolean;
  /** Jump to a loop node: `model`, `tools` or `end`. Unknown values are logged and ignored by the loop. */
  readonly goto?: string;
  /** Raw JSON queued for the host's state. */
  readonly stateUpdate?: JsonValue;
}

/**
 * Resolves whether a result returns directly: the result's explicit choice wins, else the tool's default.
 */
export function resolveReturnDirect(control: ToolControl | undefined, toolDefault: boolean): boolean {
  return control?.returnDirect ?? toolDefault;
}
