import type { Message } from '@tiny/llm';

/** What a request's `messages` hold until first read: the run's history and how much of it was sent. */
interface HeldMessages {
  sent: readonly Message[] | undefined;
  readonly history: readonly Message[];
  readonly length: number;
}

/** Returns the object it is given, so a subclass's private field is stamped on that object. */
class Passthrough {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: the object given is the one the subclass stamps
    return target;
  }
}

/**
 * Holds a request's messages in a private field stamped on the request itself: invisible to
 * `Object.keys`, `Reflect.ownKeys`, spread, JSON and equality checks, and read by an inline-cached
 * load (a `WeakMap` entry per request cost several times more to set, and more again to collect).
 */
class Held extends Passthrough {
  #messages: HeldMessages;

  private constructor(request: object, messages: HeldMessages) {
    super(request);
    this.#messages = messages;
  }

  static stamp(request: object, messages: HeldMessages): void {
    new Held(request, messages);
  }

  static of(request: object): HeldMessages | undefined {
    return #messages in request ? (request as Held).#messages : undefined;
  }
}

function readMessages(this: object): readonly Message[] | undefined {
  const messages = Held.of(this);
  if (messages === undefined) return undefined;
  messages.sent ??= messages.history.slice(0, messages.length);
  return messages.sent;
}

function writeMessages(this: object, value: readonly Message[]): void {
  const messages = Held.of(this);
  if (messages !== undefined) messages.sent = value;
}

// One getter and setter for every request: an accessor made per request (a closure) gives each
// request a hidden class of its own, so every property read of it misses its inline cache.
const accessor: PropertyDescriptor = { enumerable: true, configurable: true, get: readMessages, set: writeMessages };

/**
 * Gives `request` a `messages` property holding the first `length` messages of `history`, copied
 * into an array of its own when first read (the history only grows, so they are the history as sent
 * whenever they are read). Assigned messages replace them, as with a plain property. @internal
 */
export function lazyRequestMessages<T extends object>(request: T, history: readonly Message[], length: number): T {
  Held.stamp(request, { sent: undefined, history, length });
  return Object.defineProperty(request, 'messages', accessor);
}
