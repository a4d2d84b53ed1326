/**
 * Evaluated in every fresh QuickJS context before the program. A function expression: the host
 * calls it with its two host functions (`call(name, argsJson)` → a call id (a number), or a
 * refusal message (a string), and `log(text)`) and the callable names (a JSON array), and it
 * returns `[encode, describe, settle, isStackOverflow]`: `encode(value)` is the program's result as
 * JSON text (or throws what `JSON.stringify` threw), `describe(value)` a thrown value as text,
 * `settle(id, ok, text)` resolves (JSON text) or rejects (a message) the promise of call `id`, and
 * `isStackOverflow(value)` tells QuickJS's own stack-overflow error. The promises of nested calls
 * are made here, in the sandbox, so the host never touches a QuickJS promise capability (whose
 * resolvers it would read through heap views that memory growth detaches). Builtins are captured
 * first, so a program that replaces `JSON` or `Promise.prototype.then` only breaks itself, and the
 * `InternalError` constructor is removed. Nothing but strings and numbers crosses the boundary.
 * @internal
 */
export const PRELUDE = `(function (call, log, namesJson) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const then = Promise.prototype.then;
  const apply = Reflect.apply;
  const StringOf = String;
  const PromiseOf = Promise;
  const getPrototypeOf = Object.getPrototypeOf;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const objectToString = Object.prototype.toString;
  const internalErrorProto = typeof InternalError === 'function' ? InternalError.prototype : undefined;
  // Only the engine makes InternalErrors: a program cannot construct one to pose as a limit.
  delete globalThis.InternalError;
  const describe = (error) => {
    try {
      if (error !== null && typeof error === 'object' && typeof error.message === 'string') {
        const name = typeof error.name === 'string' ? error.name : 'Error';
        return name + ': ' + error.message;
      }
      return 'thrown value: ' + StringOf(error);
    } catch (_) {
      return 'thrown value that cannot be described';
    }
  };
  // A nested call rejects with the host's message (a string); the Error is made here, in the sandbox.
  const ErrorOf = Error;
  const defineProperty = Object.defineProperty;
  const failure = (message) => {
    const error = new ErrorOf(StringOf(message));
    defineProperty(error, 'name', { value: 'ToolError', writable: true, configurable: true });
    throw error;
  };
  const text = (value) => {
    if (typeof value === 'string') return value;
    try {
      const json = stringify(value);
      return json === undefined ? StringOf(value) : json;
    } catch (_) {
      try { return StringOf(value); } catch (_) { return '[unprintable]'; }
    }
  };
  const printer = (level) => function () {
    let line = level === 'log' ? '' : level + ': ';
    for (let index = 0; index < arguments.length; index++) line += (index > 0 ? ' ' : '') + text(arguments[index]);
    log(line);
  };
  // QuickJS builds \`repeat\` and padding one copy at a time in C, where the interrupt handler never
  // runs: a megabyte string near the memory limit can take a minute. Doubling in JS keeps every
  // step short and interruptible.
  const floor = Math.floor;
  const repeat = function repeat(count) {
    if (this === null || this === undefined) throw new TypeError('String.prototype.repeat called on null or undefined');
    const piece0 = StringOf(this);
    let n = +count;
    if (n !== n) n = 0;
    if (n < 0 || n === Infinity) throw new RangeError('invalid count: ' + count);
    n = floor(n);
    let result = '';
    let piece = piece0;
    while (n > 0) {
      if (n % 2 === 1) result += piece;
      n = floor(n / 2);
      if (n > 0) piece += piece;
    }
    return result;
  };
  const pad = (atStart) => function (targetLength, padString) {
    const text = StringOf(this);
    const filler = padString === undefined ? ' ' : StringOf(padString);
    const length = floor(+targetLength) || 0;
    if (length <= text.length || filler === '') return text;
    const missing = length - text.length;
    const run = apply(repeat, filler, [floor(missing / filler.length) + 1]).slice(0, missing);
    return atStart ? run + text : text + run;
  };
  Object.defineProperty(String.prototype, 'repeat', { value: repeat, writable: true, configurable: true });
  Object.defineProperty(String.prototype, 'padStart', { value: pad(true), writable: true, configurable: true });
  Object.defineProperty(String.prototype, 'padEnd', { value: pad(false), writable: true, configurable: true });
  const console = Object.freeze({
    log: printer('log'), info: printer('info'), warn: printer('warn'), error: printer('error'), debug: printer('debug'),
  });
  // Resolvers of nested calls in flight, by call id: closed over here, out of the program's reach.
  const pending = Object.create(null);
  const caller = (name) => {
    const fn = function (args) {
      const json = stringify(args === undefined ? {} : args);
      if (typeof json !== 'string') throw new TypeError('arguments of ' + name + ' must be a JSON object');
      const promise = new PromiseOf((resolve, reject) => {
        const id = call(name, json);
        if (typeof id === 'number') pending[id] = [resolve, reject];
        else reject(StringOf(id));
      });
      return apply(then, promise, [parse, failure]);
    };
    Object.defineProperty(fn, 'name', { value: name });
    return Object.freeze(fn);
  };
  const settle = function settle(id, ok, text) {
    const entry = pending[id];
    if (entry === undefined) return;
    delete pending[id];
    entry[ok ? 0 : 1](text);
  };
  // QuickJS's own stack-overflow error, not a look-alike: an engine-made InternalError (the
  // constructor is gone, so the program cannot make one) whose own message the engine wrote.
  const isStackOverflow = function isStackOverflow(value) {
    try {
      if (internalErrorProto === undefined || value === null || typeof value !== 'object') return false;
      if (getPrototypeOf(value) !== internalErrorProto) return false;
      if (apply(objectToString, value, []) !== '[object Error]') return false;
      const own = getOwnPropertyDescriptor(value, 'message');
      return own !== undefined && own.value === 'stack overflow';
    } catch (_) {
      return false;
    }
  };
  const declared = Object.create(null);
  for (const name of parse(namesJson)) {
    declared[name] = caller(name);
    const global = name.replace(/[^A-Za-z0-9_$]/g, '_');
    if (/^[A-Za-z_$]/.test(global)) globalThis[global] = declared[name];
  }
  Object.freeze(declared);
  // Any other name is still sent to the host, which refuses it with a clear message.
  const tools = new Proxy(declared, {
    get: (target, key) => (typeof key !== 'string' || key === 'then' ? undefined : (target[key] ?? caller(key))),
  });
  globalThis.tools = tools;
  globalThis.console = console;
  // The host reads the program's promise state natively (no \`then\`, species or \`constructor\` is
  // consulted) and hands the value here: text from the original JSON.stringify, or a described throw.
  const encode = function encode(value) {
    const json = stringify(value === undefined ? null : value);
    return typeof json === 'string' ? json : 'null';
  };
  return [encode, describe, settle, isStackOverflow];
})`;
