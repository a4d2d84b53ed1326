import {
  applySchemaTransform,
  type LanguageModelV1ResponseFormat,
  type Message,
  type SchemaTransform,
  type ToolChoice,
  type ToolSchema,
} from '@tiny/llm';
import { canonical } from '../ledger/idempotency-key.js';
import { wireToolJson } from './canonical-tool.js';
import { hashText } from './hash-text.js';
import { HistoryFold } from './history-fold.js';

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

/** One system-role message's part and its position (0-based index among all of the request's messages). */
export interface SystemPrefixPart extends PrefixPart {
  readonly index: number;
}

/**
 * The request settings that decide how a provider reads a cached prefix: the tool choice and the
 * response format (Anthropic drops its message cache when `tool_choice` changes).
 */
export interface PrefixSettings {
  readonly toolChoice?: ToolChoice | undefined;
  readonly responseFormat?: LanguageModelV1ResponseFormat | undefined;
  /** How the system text is placed on the wire (`first_user`: folded into the first user turn). */
  readonly systemPlacement?: 'first_user' | undefined;
  /** The request's provider options (compared by canonical content). */
  readonly providerOptions?: Readonly<Record<string, unknown>> | undefined;
  /**
   * What the model sends from its own settings (`LanguageModelV1.wireSettings()`: model-level
   * provider options, the model id, ...), compared by canonical content.
   */
  readonly modelSettings?: unknown;
  /**
   * `hoisted` when the model sends every system message in one system field before the
   * conversation (`ModelProfile.systemMessages`): the system part is then their texts in order,
   * positions aside, and a system message added anywhere is a system change, never an append.
   * Not a setting itself (the model's `modelSettings` names the model).
   */
  readonly systemMessages?: 'hoisted' | undefined;
  /**
   * The model's `profile.schemaTransform`, applied by the adapter to every tool and response schema
   * before it is sent: tool declarations are fingerprinted after it (a transform that changes a
   * declaration is a `tools` change) and so is the response format's schema. Not a setting itself.
   */
  readonly schemaTransform?: SchemaTransform | undefined;
}

/**
 * The fingerprint of one model request's prefix, in the order providers cache it (wire order):
 * each tool declaration (in request order, only what is sent: name, description, canonical
 * parameters, format), the system text (every system-role message of the request with its
 * position: Anthropic and Google send them all as the system prompt, OpenAI in place), the settings (tool choice and
 * response format), then each other message. `digest` covers all of it (a running hash of
 * the history's JSON content, finished with the parts before it): equal digests mean equal prefixes (up to
 * 64-bit collisions). Digests are compared within a version: a version may compute them another
 * way (the parts keep their meaning).
 */
export interface PrefixFingerprint {
  readonly digest: string;
  readonly tools: readonly ToolPrefixPart[];
  readonly system: PrefixPart;
  /**
   * Each system message's part and position (absent in fingerprints saved before positions were
   * tracked, whose `system` hash has no positions: a tracker resuming one compares the first
   * request's system messages that way, so a system message moved across that resume is not seen):
   * a system message past the previous request's last message is an append, not a change. Absent
   * too when the system messages are hoisted (they have no place of their own).
   */
  readonly systems?: readonly SystemPrefixPart[] | undefined;
  /**
   * `true` when `systems` is absent because the system messages were hoisted (so the fingerprint is
   * no state saved before positions were tracked). Absent otherwise.
   */
  readonly systemsHoisted?: true | undefined;
  /** Absent in fingerprints saved before settings were tracked. */
  readonly settings?: PrefixPart | undefined;
  readonly history: readonly PrefixPart[];
}

const sha = hashText;

// Hashed once per object: tool declarations and messages are treated as immutable (a changed tool
// or message is a new object; the harness never edits either in place).
const toolParts = new WeakMap<ToolSchema, ToolPrefixPart>();
/** Parts of declarations as a schema transform sends them: by declaration, then by the transform's JSON. */
const transformedParts = new WeakMap<ToolSchema, Map<string, ToolPrefixPart>>();
const messageParts = new WeakMap<Message, PrefixPart>();

const partOfJson = (json: string): PrefixPart => ({ hash: sha(json), chars: json.length });

/** The part of one tool declaration: what is sent of it, canonically (cached per declaration). @internal */
export function toolPart(tool: ToolSchema, transform?: SchemaTransform): ToolPrefixPart {
  if (transform !== undefined) return transformedToolPart(tool, transform);
  let part = toolParts.get(tool);
  if (part === undefined) {
    part = { name: tool.name, ...partOfJson(wireToolJson(tool)) };
    toolParts.set(tool, part);
  }
  return part;
}

/** The part of a declaration as sent after `transform` (cached per declaration and transform). */
function transformedToolPart(tool: ToolSchema, transform: SchemaTransform): ToolPrefixPart {
  const key = JSON.stringify(transform);
  let byTransform = transformedParts.get(tool);
  if (byTransform === undefined) {
    byTransform = new Map();
    transformedParts.set(tool, byTransform);
  }
  let part = byTransform.get(key);
  if (part === undefined) {
    const sent = { ...tool, parameters: applySchemaTransform(tool.parameters, transform) as ToolSchema['parameters'] };
    part = { name: tool.name, ...partOfJson(wireToolJson(sent)) };
    byTransform.set(key, part);
  }
  return part;
}

/** The response format as sent: its schema after the profile's transform, when both are set. */
function sentResponseFormat(settings: PrefixSettings | undefined): LanguageModelV1ResponseFormat | null {
  const format = settings?.responseFormat;
  if (format === undefined) return null;
  const transform = settings?.schemaTransform;
  if (transform === undefined || format.type !== 'json_schema') return format;
  return { ...format, schema: applySchemaTransform(format.schema, transform) };
}

/** The part of one message (its JSON as sent), computed afresh (a tracker computes each message's part at most once). @internal */
export function freshMessagePart(message: Message): PrefixPart {
  return partOfJson(JSON.stringify(message) ?? '');
}

/** The part of one message (its JSON as sent), cached per message object. @internal */
export function messagePart(message: Message): PrefixPart {
  let part = messageParts.get(message);
  if (part === undefined) {
    part = partOfJson(JSON.stringify(message) ?? '');
    messageParts.set(message, part);
  }
  return part;
}

const EMPTY_SYSTEM: PrefixPart = { hash: sha('[]'), chars: 0 };

/** Each system-role message's part with its position (`indexes[i]`: the request index of `systems[i]`). @internal */
export function systemPartsOf(systems: readonly Message[], indexes: readonly number[]): SystemPrefixPart[] {
  return systems.map((message, at) => ({ ...messagePart(message), index: indexes[at] as number }));
}

/**
 * The system part of a request: its system-role messages with their positions, in request order
 * (so `[system, user]` and `[user, system]` differ). A lone system message first hashes as itself.
 * `hoisted` (every system message sent in one field before the conversation): their hashes in
 * order without positions, so a lone one anywhere hashes as itself.
 * @internal
 */
export function systemPartOf(systems: readonly SystemPrefixPart[], hoisted = false): PrefixPart {
  if (systems.length === 0) return EMPTY_SYSTEM;
  const first = systems[0] as SystemPrefixPart;
  if (systems.length === 1 && (hoisted || first.index === 0)) return { hash: first.hash, chars: first.chars };
  let joined = '';
  let chars = 0;
  for (const part of systems) {
    joined += hoisted ? `${part.hash},` : `${part.index}:${part.hash},`;
    chars += part.chars;
  }
  return { hash: sha(joined), chars };
}

/**
 * The system part's hash as versions before positions were tracked wrote it (their fingerprints have
 * no `systems`): every system message's hash in request order, positions aside, without separators;
 * a lone one as itself. @internal
 */
export function positionlessSystemHash(systems: readonly PrefixPart[]): string {
  if (systems.length === 0) return EMPTY_SYSTEM.hash;
  if (systems.length === 1) return (systems[0] as PrefixPart).hash;
  let joined = '';
  for (const part of systems) joined += part.hash;
  return sha(joined);
}

/**
 * A value as JSON on the wire holds it: `toJSON` applied (a `Date` is its ISO string, a `URL` its
 * text), `undefined` members dropped, as `JSON.stringify` does. A value JSON cannot write (a cycle,
 * a bigint) is kept as is for `canonical` to judge.
 */
function asSent(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  try {
    const json = JSON.stringify(value);
    return json === undefined ? undefined : (JSON.parse(json) as unknown);
  } catch {
    return value;
  }
}

/** The settings part of a request. @internal */
export function settingsPartOf(settings: PrefixSettings | undefined): PrefixPart {
  // Response format as written (a schema's property order is model-visible); provider options by
  // canonical content. The last two only when set: fingerprints saved before still compare equal.
  let json = JSON.stringify([settings?.toolChoice ?? null, sentResponseFormat(settings)]);
  const options = settings?.providerOptions;
  if (settings?.systemPlacement !== undefined || (options !== undefined && Object.keys(options).length > 0))
    json += `|${JSON.stringify(settings?.systemPlacement ?? null)}|${canonical(asSent(options) ?? null)}`;
  // The model's own settings, only when it has some: fingerprints of models without still compare equal.
  // Both by what JSON on the wire holds (a Date option is its ISO string, never `{}`).
  if (settings?.modelSettings !== undefined) json += `|model:${canonical(asSent(settings.modelSettings) ?? null)}`;
  return partOfJson(json);
}

/** The tools' digest: a hash over their part hashes, in order. @internal */
export function toolsDigest(parts: readonly ToolPrefixPart[]): string {
  let joined = '';
  for (const part of parts) joined += part.hash;
  return sha(joined);
}

/** The hash of the parts before the history, in wire order. @internal */
export function baseDigest(tools: string, system: PrefixPart, settings: PrefixPart): string {
  return sha(`${tools}|${system.hash}|${settings.hash}`);
}

/**
 * Fingerprints a request's prefix from scratch: `tools` as the model is shown them (declared on
 * the wire or written into the prompt), `messages` as sent (before a template-specific placement
 * of the system text), and the request's tool choice and response format. Each declaration and
 * message is hashed once and remembered by object: declarations and messages are treated as
 * immutable (a part changed in place keeps its old hash; build a new object instead).
 */
export function fingerprintPrefix(
  tools: readonly ToolSchema[],
  messages: readonly Message[],
  settings?: PrefixSettings,
): PrefixFingerprint {
  const transform = settings?.schemaTransform;
  const parts = tools.map((tool) => toolPart(tool, transform));
  const systems: Message[] = [];
  const indexes: number[] = [];
  const historyMessages: Message[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'system') {
      systems.push(message);
      indexes.push(index);
    } else historyMessages.push(message);
  }
  const history = historyMessages.map(messagePart);
  const fold = new HistoryFold();
  for (const message of historyMessages) fold.add(message);
  const systemParts = systemPartsOf(systems, indexes);
  const hoisted = settings?.systemMessages === 'hoisted';
  const system = systemPartOf(systemParts, hoisted);
  const settingsPart = settingsPartOf(settings);
  return {
    digest: fold.digest(baseDigest(toolsDigest(parts), system, settingsPart)),
    tools: parts,
    system,
    // Hoisted systems have no place of their own: without positions any added one is a change.
    ...(hoisted ? {} : { systems: systemParts }),
    settings: settingsPart,
    history,
  };
}
