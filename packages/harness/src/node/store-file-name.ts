import { createHash } from 'node:crypto';

/** Characters kept as they are: lower-case ASCII letters, digits, `-` and `_`. */
const SAFE = /^[a-z0-9_-]$/;
/** Starts an escape: `@` and four lower-case hex digits of one UTF-16 code unit. */
const ESCAPE = '@';
/** Separates the readable head of a long id's name from the SHA-256 of the whole id. */
const HASHED = '=';
/** Longest name written in full; longer ids get a head and a hash (185 characters in all). */
const MAX_FULL = 150;
const HEAD = 120;
/** Names Windows reserves for devices whatever follows a dot (`nul.json` is the device `NUL`). */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
const DECODABLE = /^(?:[a-z0-9_-]|@[0-9a-f]{4})+$/;

const escapeUnit = (unit: number): string => `${ESCAPE}${unit.toString(16).padStart(4, '0')}`;

/**
 * The file name (without suffix) a file store uses for an id: injective (no two ids share a name),
 * and safe on every common file system: only lower-case ASCII letters, digits, `-`, `_`, `@` and
 * `=` (so case-insensitive file systems cannot merge two names and Unicode normalisation cannot
 * change one), never `.` (no `.`/`..`, hidden or temporary name, no trailing dot), never a Windows
 * device name. Any other UTF-16 code unit, lone surrogates included, becomes `@` and four hex
 * digits. Names over 150 characters are cut to a 120-character head plus `=` and the SHA-256 of the
 * id's UTF-16 code units, 185 characters at most, so a suffixed name stays under 255 bytes.
 * Ids of lower-case letters, digits, `-` and `_` (UUIDs, `run-1`) keep their own name.
 * @internal
 */
export function encodeStoreName(id: string): string {
  let name = '';
  for (let index = 0; index < id.length; index += 1) {
    const char = id[index] as string;
    name += SAFE.test(char) ? char : escapeUnit(id.charCodeAt(index));
  }
  if (RESERVED.test(name)) name = escapeUnit(id.charCodeAt(0)) + name.slice(1);
  if (name.length <= MAX_FULL) return name;
  let head = name.slice(0, HEAD);
  const cut = head.lastIndexOf(ESCAPE);
  if (cut > HEAD - 5) head = head.slice(0, cut);
  return `${head}${HASHED}${createHash('sha256').update(Buffer.from(id, 'utf16le')).digest('hex')}`;
}

/**
 * The id a name of {@link encodeStoreName} stands for; `undefined` for a name the encoding never
 * writes in full (a hashed long name, or a file the store did not write). @internal
 */
export function decodeStoreName(name: string): string | undefined {
  if (!DECODABLE.test(name)) return undefined;
  const id = name.replace(/@([0-9a-f]{4})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return encodeStoreName(id) === name ? id : undefined;
}

/** Whether `name` is a hashed name of {@link encodeStoreName}, whose id must be read from the file. @internal */
export function isHashedStoreName(name: string): boolean {
  return /^(?:[a-z0-9_-]|@[0-9a-f]{4})*=[0-9a-f]{64}$/.test(name);
}
