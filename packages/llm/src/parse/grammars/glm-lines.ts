import { parseJsonStrict } from '../extract-json-values.js';
import { isRecord } from '../own-properties.js';
import type { RawCall } from '../scan-types.js';

const toolPart = /^[\p{L}\p{N}_]+$/u;
const parameterPart = /^[\p{L}\p{N}_.-]+$/u;

/**
 * Maps GLM's built-in tool names onto the host's: `browser_open`, `browser`, `web_search`, `shell`
 * and `bash` become `shell`; `http_request` and `http` become `http_request`; anything else is kept.
 */
export function glmToolAlias(name: string): string {
  switch (name) {
    case 'browser_open':
    case 'browser':
    case 'web_search':
    case 'shell':
    case 'bash':
      return 'shell';
    case 'http_request':
    case 'http':
      return 'http_request';
    default:
      return name;
  }
}

/** A `curl -s '<url>'` command for a plain http(s) URL without whitespace, else `undefined`. */
export function buildCurlCommand(url: string): string | undefined {
  if (!url.startsWith('http://') && !url.startsWith('https://')) return undefined;
  if (/\s/u.test(url)) return undefined;
  return `curl -s '${url.split("'").join("'\\''")}'`;
}

/** @internal Reads one GLM line, `tool/param>value` or `tool/{json}`; `undefined` when it is not one. */
export function readGlmLine(rawLine: string): RawCall | undefined {
  const line = rawLine.trim();
  const slash = line.indexOf('/');
  if (slash <= 0) return undefined;
  const tool = line.slice(0, slash);
  if (!toolPart.test(tool)) return undefined;
  const name = glmToolAlias(tool);
  const rest = line.slice(slash + 1);
  if (rest.startsWith('{')) {
    const parsed = parseJsonStrict(rest);
    return parsed !== undefined && isRecord(parsed.value)
      ? { name, arguments: parsed.value, source: 'glm' }
      : undefined;
  }
  const arrow = rest.indexOf('>');
  if (arrow < 0) return undefined;
  const parameter = rest.slice(0, arrow).trim();
  const value = rest.slice(arrow + 1).trim();
  if (!parameterPart.test(parameter) || value === '') return undefined;
  const args = argumentsFor(name, parameter, value);
  return args === undefined ? undefined : { name, arguments: args, source: 'glm' };
}

function argumentsFor(name: string, parameter: string, value: string): Record<string, unknown> | undefined {
  if (name === 'shell') {
    if (parameter === 'url') {
      const command = buildCurlCommand(value);
      return command === undefined ? undefined : { command };
    }
    if (value.startsWith('http://') || value.startsWith('https://'))
      return { command: buildCurlCommand(value) ?? value };
    return { command: value };
  }
  if (name === 'http_request') return { url: value, method: 'GET' };
  return { [parameter]: value };
}

/** @internal Every GLM call line in `text`, in order (used inside a tag body). */
export function parseGlmLines(text: string): RawCall[] {
  const calls: RawCall[] = [];
  for (const line of text.split('\n')) {
    const call = readGlmLine(line);
    if (call !== undefined) calls.push(call);
  }
  return calls;
}

/**
 * @internal The GLM calls in a whole narrative, and the narrative without their lines (trimmed).
 * `accept` can refuse a call, leaving its line in the text.
 */
export function stripGlmLines(text: string, accept: (call: RawCall) => boolean): { text: string; calls: RawCall[] } {
  const calls: RawCall[] = [];
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    const call = readGlmLine(line);
    if (call !== undefined && accept(call)) calls.push(call);
    else kept.push(line);
  }
  return calls.length === 0 ? { text, calls } : { text: kept.join('\n').trim(), calls };
}
