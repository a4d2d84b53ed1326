import type Database from 'better-sqlite3';

type Connection = Database.Database;

/** The connection of each open ledger, for a checkpoint store sharing it. @internal */
export const databases: WeakMap<object, Connection> = new WeakMap();
