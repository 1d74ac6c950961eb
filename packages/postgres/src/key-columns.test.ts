import { sampleKeyRecord } from '@drops/auth/testing/conformance';
import { keyRecordView } from '@drops/auth/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyColumns, keyOfRow, newKeyArgs, newKeyValues, type KeyRow } from './key-columns.js';
import { KEYS_TABLE, migrateKeyStore } from './key-store-migrations.js';
import { namedStatement } from './named-statement.js';
import type { Queryable } from './queryable.js';
import { freshPGlite } from './test-support/pglite-data-dir.js';

/** Columns of the key table that are a key's state in the store, not fields of the key record. */
const STORE_STATE_COLUMNS = ['revoked_at', 'revoked_revision', 'replaces', 'rolled_to'];

const insert = namedStatement((p) => `insert into ${KEYS_TABLE} (${keyColumns('new')}) values (${newKeyValues(p)})`);

let db: Queryable;

beforeAll(async () => {
  db = await freshPGlite();
  await migrateKeyStore(db);
});

afterAll(async () => {
  await db?.close();
});

async function rowOf(columns: string, id: string): Promise<KeyRow> {
  const { rows } = await db.query<KeyRow>(`select ${columns} from ${KEYS_TABLE} where id = $1`, [id]);
  return rows[0]!;
}

describe('the key record in drops_auth_keys', () => {
  it('maps every column the migrations made: a field of the record, or the store state', async () => {
    const { rows } = await db.query<{ column_name: string }>('select column_name from information_schema.columns where table_name = $1', [
      KEYS_TABLE,
    ]);
    const recordColumns = new Set((['new', 'listed', 'active'] as const).flatMap((view) => keyColumns(view).split(', ')));
    expect(rows.map((r) => r.column_name).sort()).toEqual([...recordColumns, ...STORE_STATE_COLUMNS].sort());
  });

  it('reads back what it inserts, for every view: provenance, no provenance, an expiry, none', async () => {
    const keys = [
      sampleKeyRecord({ expiresAt: new Date('2027-01-01T00:00:00.123Z') }),
      sampleKeyRecord({ provenance: null, name: null }),
      sampleKeyRecord({ provenance: { subject: 'user_9', signInProvider: null, authTime: null } }),
    ];
    for (const { secret: _, ...key } of keys) {
      await db.query(insert.text, insert.params(newKeyArgs(key)));
      const lastUsedAt = new Date('2026-06-01T12:00:00.456Z');
      await db.query(`update ${KEYS_TABLE} set last_used_at = $2 where id = $1`, [key.id, lastUsedAt]);
      const stored = { ...key, lastUsedAt };
      for (const view of ['new', 'listed', 'active'] as const) {
        expect(keyOfRow(view, await rowOf(keyColumns(view), key.id))).toEqual(keyRecordView(stored, view));
      }
    }
  });
});
