// Runs the "On a server" set-up of docs/postgres.md against the test PostgreSQL (127.0.0.1:5432),
// in a scratch database: the store it opens keeps, authenticates and revokes keys.
import { expectKeyStoreWorks, scratchDatabaseUrl, setEnv } from '../harness/support.js';

setEnv('DATABASE_URL', await scratchDatabaseUrl());

// <<example>>

await expectKeyStoreWorks(keyStore);
await keyStore.close();
