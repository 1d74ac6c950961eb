/**
 * One step of a schema's history. Versions only grow; a migration, once applied anywhere, is never
 * edited (add a new one instead).
 *
 * @example
 * ```ts
 * const migrations: Migration[] = [
 *   { version: 1, name: 'drops', sql: 'create table drops (slug text primary key)' },
 *   { version: 2, name: 'drops owner', sql: 'alter table drops add column owner text' },
 * ];
 * ```
 */
export interface Migration {
  /** A positive integer, unique within its set. Migrations apply in increasing order. */
  readonly version: number;
  /** A short label, stored with the version; a different name for an applied version is an error. */
  readonly name: string;
  /** The SQL script: one or more `;`-separated statements. It runs inside a transaction. */
  readonly sql: string;
}
