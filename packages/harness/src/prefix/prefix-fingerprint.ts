import type { Message, ToolSchema } from '@tiny/llm';
import { hashText } from './hash-text.js';

/** One hashed part of a request's prefix: a 64-bit hash of its JSON (16 hex digits) and the JSON's length. */
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

const sha = hashText;

/** The part of one object (its JSON as sent), computed afresh. @internal */
export function partOfNew(value: object): PrefixPart {
  const json = JSON.stringify(value) ?? '';
  return { hash: sha(json), chars: json.length };
}

/** The part of one object (its JSON as sent), cached per object. @internal */
export function partOf(value: object): PrefixPart {
  let part = hashes.get(value);
  if (part === undefined) {
    part = partOfNew(value);
    hashes.set(value, part);
  }
  return part;
}

const EMPTY_SYSTEM: PrefixPart = { hash: sha('[]'), chars: 0 };

/** The system part of a request: its leading system messages (`systemEnd` of them). @internal */
export function systemPart(messages: readonly Message[], systemEnd: number): PrefixPart {
  if (systemEnd === 0) return EMPTY_SYSTEM;
  if (systemEnd === 1) return partOf(messages[0] as Message);
  const json = JSON.stringify(messages.slice(0, systemEnd));
  return { hash: sha(json), chars: json.length };
}

/** How many messages lead a request with the system role. @internal */
export function leadingSystemCount(messages: readonly Message[]): number {
  let count = 0;
  while (messages[count]?.role === 'system') count += 1;
  return count;
}

/** The digest of a whole prefix from the tools' digest, the system hash and the history's digest. @internal */
export function combineDigest(toolsDigest: string, system: PrefixPart, history: string): string {
  return sha(`${toolsDigest}|${system.hash}|${history}`);
}

/**
 * A running digest of the history: a left fold of its part hashes through two 32-bit lanes, so a
 * tracker feeds it message by message (one multiply per lane, no hashing) and any way of building
 * the same history gives the same value. Informational: breaks are found by comparing parts.
 * @internal
 */
export class HistoryFold {
  private a = 0x6a09e667;
  private b = 0x3c6ef372;

  add(part: PrefixPart): void {
    const high = Number.parseInt(part.hash.slice(0, 8), 16);
    const low = Number.parseInt(part.hash.slice(8, 16), 16);
    this.a = Math.imul(((this.a << 5) | (this.a >>> 27)) ^ high, 0x9e3779b1) ^ low;
    this.b = Math.imul(((this.b << 7) | (this.b >>> 25)) ^ low, 0x85ebca77) ^ high;
  }

  value(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}

/** The tools' digest: a hash over their part hashes, in order. @internal */
export function toolsDigest(parts: readonly ToolPrefixPart[]): string {
  let joined = '';
  for (const part of parts) joined += part.hash;
  return sha(joined);
}

/**
 * Fingerprints a request's prefix: `tools` as the model is shown them (declared on the wire or
 * written into the prompt), and `messages` as sent. Parts are hashed from the objects' JSON,
 * which is what adapters serialise, so a re-serialised but equal-looking declaration is a change.
 * Each schema and message is hashed once and remembered by object (messages and schemas are
 * treated as immutable, as the harness treats them): a part changed in place keeps its old hash.
 */
export function fingerprintPrefix(tools: readonly ToolSchema[], messages: readonly Message[]): PrefixFingerprint {
  const toolParts: ToolPrefixPart[] = tools.map((tool) => ({ name: tool.name, ...partOf(tool) }));
  const systemEnd = leadingSystemCount(messages);
  const system = systemPart(messages, systemEnd);
  const history: PrefixPart[] = [];
  const fold = new HistoryFold();
  for (let index = systemEnd; index < messages.length; index += 1) {
    const part = partOf(messages[index] as Message);
    history.push(part);
    fold.add(part);
  }
  return {
    digest: combineDigest(toolsDigest(toolParts), system, fold.value()),
    tools: toolParts,
    system,
    history,
  };
}
