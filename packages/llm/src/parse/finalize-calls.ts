import { resolveToolNameDetailed, trimToolNameJunk } from '../names/resolve-tool-name.js';
import type { ParseDiagnostic, ParsedCall } from './parse-types.js';
import type { ToolKnowledge } from './scan-context.js';
import type { RawCall } from './scan-types.js';

/**
 * @internal Resolves every non-native call name against the offered tools (repair only to a
 * unique offered tool; with no tools only trailing junk is cut) and adds the `name_repaired`,
 * `unknown_tool` and `arguments_repaired` diagnostics. A call whose name resolves to nothing is
 * dropped, and so is a provider built-in that was not offered by exactly its name. A call with invalid arguments keeps its raw argument text and the reason.
 */
export function finalizeCalls(
  raw: readonly RawCall[],
  knowledge: ToolKnowledge,
): { calls: ParsedCall[]; diagnostics: ParseDiagnostic[] } {
  const calls: ParsedCall[] = [];
  const diagnostics: ParseDiagnostic[] = [];
  for (const call of raw) {
    let name = call.name;
    if (call.builtin === true && !knowledge.isKnown(call.name)) {
      diagnostics.push({ kind: 'unknown_tool', name: call.name });
      continue;
    }
    if (call.source !== 'native' && call.builtin !== true) {
      const resolution = resolve(call.name, knowledge.names);
      name = resolution.name;
      if (name === '') continue;
      if (resolution.status === 'repaired' && name !== call.name) {
        diagnostics.push({ kind: 'name_repaired', from: call.name, to: name });
      } else if (knowledge.names.length > 0 && resolution.status === 'unknown') {
        diagnostics.push({ kind: 'unknown_tool', name });
      }
    }
    if (call.repaired === true) diagnostics.push({ kind: 'arguments_repaired', tool: name });
    if (call.invalid !== undefined) {
      const partial = call.invalid.partial === true ? ({ partial: true } as const) : {};
      calls.push({ name, arguments: call.invalid.raw, source: call.source, invalid: call.invalid.reason, ...partial });
    } else {
      calls.push({ name, arguments: call.arguments, source: call.source });
    }
  }
  return { calls, diagnostics };
}

function resolve(raw: string, known: readonly string[]): { name: string; status: 'exact' | 'repaired' | 'unknown' } {
  try {
    if (known.length === 0) return { name: trimToolNameJunk(raw), status: 'unknown' };
    return resolveToolNameDetailed(raw, known);
  } catch {
    return { name: raw, status: known.includes(raw) ? 'exact' : 'unknown' };
  }
}
