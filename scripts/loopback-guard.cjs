// Loopback guard: a Node preload (`NODE_OPTIONS=--require=<this file>`) that makes every attempt of
// a test process to reach beyond the local host fail at once and loudly. `scripts/offline.sh` loads
// it into every Node process of a run (vitest, its workers, forked workers, MCP servers that
// inherit the environment) next to a loopback-only network namespace.
//
// Allowed: TCP/UDP to 127.0.0.0/8, ::1, ::ffff:127.x.x.x, the unspecified address (it means the
// local host), `localhost` and `*.localhost`; Unix sockets and named pipes. Everything else throws
// an Error with code `ERR_TINY_NON_LOOPBACK` synchronously from `connect`/`send`/`lookup`/`resolve*`
// (no name is ever sent to a DNS server), prints a line to stderr and appends it to the file named
// by `TINY_LOOPBACK_GUARD_LOG`, so a caller that swallows the error (a retry loop, `fetch` turning
// it into "fetch failed") still fails the run: `offline.sh` exits non-zero when that file is not
// empty. Plain CommonJS with no dependencies so it loads before anything else.
'use strict';

const net = require('node:net');
const dgram = require('node:dgram');
const dns = require('node:dns');
const fs = require('node:fs');

const CODE = 'ERR_TINY_NON_LOOPBACK';

function isLoopbackIp(address) {
  const family = net.isIP(address);
  if (family === 4) return address.startsWith('127.') || address === '0.0.0.0';
  if (family === 6) {
    const lower = address.toLowerCase().replace(/^\[|\]$/g, '');
    if (lower === '::1' || lower === '::' || lower === '0:0:0:0:0:0:0:1' || lower === '0:0:0:0:0:0:0:0') return true;
    const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped?.[1]?.startsWith('127.') === true;
  }
  return false;
}

function isLocalName(host) {
  const lower = String(host).toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost');
}

/** True when `host` (an IP literal or a name) can only mean the local host. */
function isLocal(host) {
  if (host === undefined || host === null || host === '') return true; // Node's default: localhost
  const text = String(host).replace(/^\[|\]$/g, '');
  return net.isIP(text) ? isLoopbackIp(text) : isLocalName(text);
}

function refuse(what, target) {
  const line = `[loopback-guard] pid ${process.pid} (${process.argv.slice(1, 3).join(' ')}): ${what} ${target} refused: tests may only reach loopback (127.0.0.1, ::1, localhost)`;
  try {
    process.stderr.write(`${line}\n${new Error('stack').stack?.split('\n').slice(2, 8).join('\n')}\n`);
  } catch {}
  const log = process.env.TINY_LOOPBACK_GUARD_LOG;
  if (log) {
    try {
      fs.appendFileSync(log, `${line}\n`);
    } catch {}
  }
  const error = new Error(line);
  error.code = CODE;
  return error;
}

// net.Socket#connect: (options[, cb]) | (path[, cb]) | (port[, host][, cb]) | (normalized args array)
const originalConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  let options = args[0];
  if (Array.isArray(options)) options = options[0];
  let host;
  let port;
  let path;
  if (options !== null && typeof options === 'object') {
    ({ host, port, path } = options);
  } else if (typeof options === 'string' && !/^\d+$/.test(options)) {
    path = options;
  } else {
    port = options;
    host = typeof args[1] === 'string' ? args[1] : undefined;
  }
  if (path === undefined && !isLocal(host)) throw refuse('connect to', `${host}:${port}`);
  return originalConnect.apply(this, args);
};

const originalUdpConnect = dgram.Socket.prototype.connect;
dgram.Socket.prototype.connect = function guardedUdpConnect(port, address, ...rest) {
  if (typeof address === 'string' && !isLocal(address)) throw refuse('UDP connect to', `${address}:${port}`);
  return originalUdpConnect.call(this, port, address, ...rest);
};

// dgram.Socket#send: (msg, [offset, length,] port, address, cb)
const originalSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(...args) {
  const long = (args[3] !== undefined && typeof args[3] !== 'function') || Boolean(args[4]);
  const address = long ? args[4] : args[2];
  const port = long ? args[3] : args[1];
  if (typeof address === 'string' && !isLocal(address)) throw refuse('UDP send to', `${address}:${port}`);
  return originalSend.apply(this, args);
};

function guardLookup(target, key) {
  const original = target[key];
  if (typeof original !== 'function') return;
  target[key] = function guardedLookup(hostname, ...rest) {
    if (!isLocal(hostname)) throw refuse('DNS lookup of', String(hostname));
    return original.call(this, hostname, ...rest);
  };
}
guardLookup(dns, 'lookup');
guardLookup(dns.promises, 'lookup');

// resolve*/reverse always ask a DNS server, even for `localhost`: refuse them all.
function guardResolvers(target) {
  for (const key of Object.getOwnPropertyNames(target)) {
    if (!/^(resolve|reverse)/.test(key) || typeof target[key] !== 'function') continue;
    target[key] = function guardedResolve(name) {
      throw refuse(`DNS ${key} of`, String(name));
    };
  }
}
guardResolvers(dns);
guardResolvers(dns.promises);
guardResolvers(dns.Resolver.prototype);
guardResolvers(dns.promises.Resolver.prototype);

module.exports = { isLocal, CODE };
