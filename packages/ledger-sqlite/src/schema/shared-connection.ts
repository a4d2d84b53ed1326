import { InvalidInputError } from '@tiny/tools';
import type Database from 'better-sqlite3';
import { LedgerClosedError } from '../errors/ledger-closed-error.js';
import { type OpenDatabaseOptions, openDatabase } from './open-database.js';

type Connection = Database.Database;

/** The connection of each open ledger, for a checkpoint store sharing it. @internal */
export const databases: WeakMap<object, Connection> = new WeakMap();

/**
 * The connection a store works on: the open ledger's own (`{ ledger }`; the store does not own
 * it) or a file it opens itself (path options; the store owns and closes it).
 * @throws {InvalidInputError} when `ledger` is not a `SqliteToolEffectLedger`.
 * @throws {LedgerClosedError} (as `operation`) when that ledger is closed.
 * @internal
 */
export function connectStore(
  entryPoint: string,
  operation: string,
  options: { readonly ledger: { readonly path: string } } | OpenDatabaseOptions,
): { db: Connection; path: string; owned: boolean } {
  if (options !== null && typeof options === 'object' && 'ledger' in options) {
    const db = databases.get(options.ledger);
    if (db === undefined) {
      throw new InvalidInputError({ entryPoint, reason: '`ledger` must be a SqliteToolEffectLedger' });
    }
    if (!db.open) throw new LedgerClosedError({ operation });
    return { db, path: options.ledger.path, owned: false };
  }
  return { ...openDatabase(entryPoint, options), owned: true };
}
