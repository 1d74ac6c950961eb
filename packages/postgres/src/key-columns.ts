import type { KeyProvenance } from '@drops/auth';
import { KEY_RECORD_VIEWS, type KeyFieldsOf, type KeyRecordView, type StoredKey } from '@drops/auth/internal';
import type { Placeholder } from './named-statement.js';

/** A row of `drops_auth_keys` as the driver hands it: column name to value (a `timestamptz` a `Date`). */
export type KeyRow = Readonly<Record<string, unknown>>;

interface SqlValues {
  text: string;
  timestamptz: Date;
}
type SqlType = keyof SqlValues;

/**
 * One field of the key record in `drops_auth_keys`: the columns that hold it (name to SQL type,
 * in order), its value as their parameters, and its value read back from a row.
 */
interface KeyField<T> {
  readonly columns: Readonly<Record<string, SqlType>>;
  readonly toParams: (value: T) => readonly unknown[];
  readonly fromRow: (row: KeyRow) => T;
}

function column<S extends SqlType>(name: string, type: S): KeyField<SqlValues[S]> {
  const read = type === 'timestamptz' ? (row: KeyRow) => new Date(row[name] as Date) : (row: KeyRow) => row[name];
  return { columns: { [name]: type }, toParams: (value) => [value], fromRow: read as (row: KeyRow) => SqlValues[S] };
}

/** A one-column field whose SQL `null` is the field's `null`. */
function nullable<T>(field: KeyField<T>): KeyField<T | null> {
  const [name] = Object.keys(field.columns) as [string];
  return {
    columns: field.columns,
    toParams: (value) => (value === null ? [null] : field.toParams(value)),
    fromRow: (row) => (row[name] === null ? null : field.fromRow(row)),
  };
}

/** The login behind a key, in three columns: no subject, no provenance. */
const provenance: KeyField<KeyProvenance | null> = {
  columns: { minted_by_subject: 'text', minted_by_sign_in_provider: 'text', minted_by_auth_time: 'timestamptz' },
  toParams: (p) => [p?.subject ?? null, p?.signInProvider ?? null, p?.authTime ?? null],
  fromRow: (row) =>
    row.minted_by_subject === null
      ? null
      : {
          subject: row.minted_by_subject as string,
          signInProvider: row.minted_by_sign_in_provider as string | null,
          authTime: row.minted_by_auth_time === null ? null : new Date(row.minted_by_auth_time as Date),
        },
};

/**
 * Where each field of the key record lives in `drops_auth_keys` (the columns the migrations
 * made): the column lists, the INSERT and the row mappings of {@link PostgresKeyStore} all come
 * from it and {@link KEY_RECORD_VIEWS}. A field of `StoredKey` left out is a type error here.
 */
const KEY_FIELDS: { readonly [F in keyof StoredKey]-?: KeyField<StoredKey[F]> } = {
  id: column('id', 'text'),
  accountId: column('account_id', 'text'),
  prefix: column('prefix', 'text'),
  name: nullable(column('name', 'text')),
  createdAt: column('created_at', 'timestamptz'),
  provenance,
  lastUsedAt: nullable(column('last_used_at', 'timestamptz')),
  expiresAt: nullable(column('expires_at', 'timestamptz')),
};

/** Any field, for the loops below: each reads and writes its own field's values. */
function fieldOf(name: keyof StoredKey): KeyField<unknown> {
  return KEY_FIELDS[name] as KeyField<unknown>;
}

function columnsOf(view: KeyRecordView): [string, SqlType][] {
  return KEY_RECORD_VIEWS[view].flatMap((f) => Object.entries(fieldOf(f).columns));
}

/** The columns of a view, for a SELECT or an INSERT: `id, account_id, expires_at`. @internal */
export function keyColumns(view: KeyRecordView): string {
  return columnsOf(view)
    .map(([name]) => name)
    .join(', ');
}

/**
 * The values of a new key's columns (in the order of `keyColumns('new')`), each a parameter named
 * for its column and cast to its type: `$1::text, $2::text, ...`. @internal
 */
export function newKeyValues(p: Placeholder): string {
  return columnsOf('new')
    .map(([name, type]) => `${p(name)}::${type}`)
    .join(', ');
}

/** A new key's column values, by column name: the arguments of {@link newKeyValues}' parameters. @internal */
export function newKeyArgs(key: Pick<StoredKey, KeyFieldsOf<'new'>>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const f of KEY_RECORD_VIEWS.new) {
    const { columns, toParams } = fieldOf(f);
    const values = toParams(key[f]);
    for (const [i, name] of Object.keys(columns).entries()) args[name] = values[i];
  }
  return args;
}

/** A view of the key record from a row holding its columns (`keyColumns(view)`). @internal */
export function keyOfRow<V extends KeyRecordView>(view: V, row: KeyRow): Pick<StoredKey, KeyFieldsOf<V>> {
  const key: Partial<Record<keyof StoredKey, unknown>> = {};
  for (const f of KEY_RECORD_VIEWS[view]) key[f] = fieldOf(f).fromRow(row);
  return key as Pick<StoredKey, KeyFieldsOf<V>>;
}
