// Runs the Embedded set-up of docs/postgres.md in a temporary working folder: the store keeps its
// keys in `.data` there, and they are still there when the folder is opened again.
import * as check from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { sampleKeyRecord } from '@drops/auth/testing';
import { openPGliteKeyStore as reopen } from '@drops/auth-postgres';
import { expectKeyStoreWorks, inTemporaryDirectory } from '../harness/support.js';

await inTemporaryDirectory();

// <<example>>

await expectKeyStoreWorks(keyStore);
const { secret: _secret, ...kept } = sampleKeyRecord({ accountId: 'acct-docs' });
await keyStore.create(kept);
await keyStore.close();
check.ok(existsSync('.data/PG_VERSION'), 'a PostgreSQL data folder in .data');
const again = await reopen({ dataDir: '.data' });
try {
  check.deepEqual(await again.findActive(kept.id), { id: kept.id, accountId: 'acct-docs', expiresAt: null });
} finally {
  await again.close();
}
