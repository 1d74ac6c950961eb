// Runs the "Production" example of docs/postgres.md against the test PostgreSQL (127.0.0.1:5432),
// in a scratch database: migrated as a deploy step, then opened by a runtime that runs no DDL.
import { expectKeyStoreWorks, scratchDatabaseUrl, setEnv } from '../harness/support.js';

setEnv('DATABASE_URL', await scratchDatabaseUrl());

// <<example>>

await expectKeyStoreWorks(keyStore);
await keyStore.close();
