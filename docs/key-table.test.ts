/**
 * postgres.md's table of `drops_auth_keys` names every column the migrations make, each once, and
 * no other: a new key column is documented with its migration.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYS_TABLE, migrateKeyStore, openPGlite } from '@drops/auth-postgres';
import { describe, expect, it } from 'vitest';

const docsDir = dirname(fileURLToPath(import.meta.url));

/** The backquoted names in the first cell of each row of the table after "The table `drops_auth_keys`:". */
function documentedColumns(): string[] {
  const text = readFileSync(join(docsDir, 'postgres.md'), 'utf8');
  const table = text.slice(text.indexOf(`The table \`${KEYS_TABLE}\`:`)).split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
}

describe(`the ${KEYS_TABLE} table in postgres.md`, () => {
  it('names each column the migrations make, once, and no other', async () => {
    const db = await openPGlite({ dataDir: ':memory:' });
    try {
      await migrateKeyStore(db);
      const { rows } = await db.query<{ column_name: string }>('select column_name from information_schema.columns where table_name = $1', [
        KEYS_TABLE,
      ]);
      expect(documentedColumns().sort()).toEqual(rows.map((r) => r.column_name).sort());
    } finally {
      await db.close();
    }
  });
});
