// `pnpm run migrate`: the reference server's migrations (the key store's and its own tables) as a
// deploy step, for a runtime that starts with migrations off (docs/reference-server.md).
import { openPostgres } from '@drops/auth-postgres';
import { migrateDatabase } from './db/open-database.js';
import { ENV } from './settings.js';

const url = process.env[ENV.databaseUrl];
if (url === undefined || url === '') {
  process.stderr.write(`migrate: set ${ENV.databaseUrl}\n`);
  process.exitCode = 2;
} else {
  const db = await openPostgres({ connectionString: url, maxConnections: 1 });
  try {
    await migrateDatabase(db);
    process.stdout.write('migrated\n');
  } finally {
    await db.close();
  }
}
