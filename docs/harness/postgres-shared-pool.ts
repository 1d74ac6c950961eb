// Runs "To share one pool with your own code" of docs/postgres.md against the test PostgreSQL
// (127.0.0.1:5432), in a scratch database: the store works, and closing it leaves the pool open.
import * as check from 'node:assert/strict';
import { afterExample, expectKeyStoreWorks, scratchDatabaseUrl, setEnv } from '../harness/support.js';

setEnv('DATABASE_URL', await scratchDatabaseUrl());
/** The app's logger (pino, say). */
const log = { warn: (_fields: object, _message: string): void => {} };

// <<example>>

afterExample(() => (pool.ended ? undefined : pool.end()));
await expectKeyStoreWorks(keyStore);
await keyStore.close();
check.deepEqual((await pool.query('select 1 as one')).rows, [{ one: 1 }]);
