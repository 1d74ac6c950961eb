// Runs the Migrations example of docs/postgres.md against the test PostgreSQL (127.0.0.1:5432),
// in a scratch database: both tables exist afterwards.
import * as check from 'node:assert/strict';
import { fromPgPool } from '@drops/auth-postgres';
import pg from 'pg';
import { afterExample, scratchDatabaseUrl } from '../harness/support.js';

const db = fromPgPool(new pg.Pool({ connectionString: await scratchDatabaseUrl() }));
afterExample(() => db.close());

// <<example>>

const tables = await db.query<{ t: string | null }>(
  "select to_regclass('drops')::text as t union all select to_regclass('vanity_names')::text",
);
check.deepEqual(tables.rows, [{ t: 'drops' }, { t: 'vanity_names' }]);
