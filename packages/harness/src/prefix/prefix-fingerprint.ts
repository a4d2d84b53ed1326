import { createHash } from 'node:crypto';
import type { Message, ToolSchema } from '@tiny/llm';

/** One hashed part of a request's prefix: its SHA-256 (first 16 hex digits) and its JSON length. */
export interface PrefixPart {
  readonly hash: string;
  /** Characters of the part's JSON; `chars / 4` estimates its tokens. */
  readonly chars: number;
}

/** A tool declaration's part, by the tool's name. */
export interface ToolPrefixPart extends PrefixPart {
  readonly name: string;
}

/**
 * The fingerprint of one model request's prefix, in the order providers cache it: each tool
 * declaration (in request order), the system text (the request's leading system messages), then
 * each later message. `digest` hashes all of it: equal digests mean byte-identical prefixes.
 */
export interface PrefixFingerprint {
  readonly digest: string;
  readonly tools: readonly ToolPrefixPart[];
  readonly system: PrefixPart;
  readonly history: readonly PrefixPart[];
}

// Tool schemas and history messages are long-lived objects: each is hashed once per run, not per turn.
const hashes = new WeakMap<object, PrefixPart>();

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The part of one object (its JSON as sent), cached per object. */
function partOf(value: object): PrefixPart {
  let part = hashes.get(value);
  if (part === undefined) {
    const json = JSON.stringify(value) ?? '';
    part = { hash: sha(json), chars: json.length };
    hashes.set(value, part);
  }
  return part;
}

const EMPTY_SYSTEM: PrefixPart = { hash: sha('[]'), chars: 0 };

/**
 * Fingerprints a request's prefix: `tools` as the model is shown them (declared on the wire or
 * written into the prompt), and `messages` as sent. Parts are hashed from the objects' JSON,
 * which is what adapters serialise, so a re-serialised but equal-looking declaration is a change.
 */
export function fingerprintPrefix(tools: readonly ToolSchema[], messages: readonly Message[]): PrefixFingerprint {
  const toolParts: ToolPrefixPart[] = tools.map((tool) => ({ name: tool.name, ...partOf(tool) }));
  let systemEnd = 0;
  while (messages[systemEnd]?.role === 'system') systemEnd += 1;
  let system = EMPTY_SYSTEM;
  if (systemEnd === 1) system = partOf(messages[0] as Message);
  else if (systemEnd > 1) {
    const json = JSON.stringify(messages.slice(0, systemEnd));
    system = { hash: sha(json), chars: json.length };
  }
  const history: PrefixPart[] = [];
  for (let index = systemEnd; index < messages.length; index += 1) history.push(partOf(messages[index] as Message));
  const digest = createHash('sha256');
  for (const part of toolParts) digest.update(part.hash);
  digest.update(`|${system.hash}|`);
  for (const part of history) digest.update(part.hash);
  return { digest: digest.digest('hex').slice(0, 16), tools: toolParts, system, history };
}
