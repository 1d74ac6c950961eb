// Runs the "Upgrading" example of docs/postgres.md against the test PostgreSQL (127.0.0.1:5432),
// in a scratch database: the script of one migration is recognised after it is applied.
import * as check from 'node:assert/strict';
import { migrationStatus } from '@drops/auth-postgres';
import { scratchDatabaseUrl, setEnv } from '../harness/support.js';

setEnv('DATABASE_URL', await scratchDatabaseUrl());

// <<example>>

check.deepEqual((await migrationStatus(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations })).pending, []);
await db.close();
