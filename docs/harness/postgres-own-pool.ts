// Runs "Bring your own pool" of packages/postgres/README.md against the test PostgreSQL
// (127.0.0.1:5432), in a scratch database: the app's own table sits beside a working key store.
import * as check from 'node:assert/strict';
import { expectKeyStoreWorks, scratchDatabaseUrl, setEnv } from '../harness/support.js';

setEnv('DATABASE_URL', await scratchDatabaseUrl());

// <<example>>

await db.query("insert into drops (slug) values ('hello')");
check.deepEqual((await db.query('select slug from drops')).rows, [{ slug: 'hello' }]);
await expectKeyStoreWorks(keyStore);
await keyStore.close(); // closeDatabase: true, so this ends the pool
await check.rejects(db.query('select 1'));
