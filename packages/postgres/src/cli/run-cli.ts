import { parseArgs } from 'node:util';
import { grantKeyStoreSql } from '../grant-key-store.js';
import { KEY_STORE_NAMESPACE, keyStoreMigrations, migrateKeyStore } from '../key-store-migrations.js';
import { migrationStatus } from '../migration-status.js';
import { migrationsAsSql } from '../migrations-as-sql.js';
import { openPostgres } from '../open-postgres.js';
import type { Queryable } from '../queryable.js';

/** Where the command writes; `process`'s streams in the real binary. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
}

export const USAGE = `usage: drops-auth-postgres <command> [--database-url <url>]

  migrate          apply the key store's pending migrations (idempotent; safe when several run at once)
  status           list applied and pending migrations; exits 1 when any is pending
  sql [--from N]   print the migrations (from version N) as one plain SQL script, for psql or your own tool
  grant <role>     give a login role what the store needs at run time (no CREATE, no ALTER)

The database is --database-url, else DATABASE_URL.
`;

const SET = { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations };

class UsageError extends Error {}

/** Runs one command; resolves the exit code (0 done, 1 pending or failed, 2 usage). Never prints the URL. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { 'database-url': { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined) {
    (command === undefined && values.help !== true ? io.stderr : io.stdout).write(USAGE);
    return command === undefined && values.help !== true ? 2 : 0;
  }
  try {
    if (command === 'sql') return printSql(rest, values.from, io);
    const url = values['database-url'] ?? io.env['DATABASE_URL'];
    if (url === undefined || url === '') throw new UsageError('no database: pass --database-url or set DATABASE_URL');
    if (command !== 'migrate' && command !== 'status' && command !== 'grant') throw new UsageError(`unknown command "${command}"`);
    if (command === 'grant' ? rest.length !== 1 : rest.length !== 0) throw new UsageError(`wrong arguments for ${command}`);
    const db = await openPostgres({ connectionString: url, maxConnections: 1 });
    try {
      return await run(command, db, rest[0], io);
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`drops-auth-postgres: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr.write(`drops-auth-postgres ${command}: ${messageOf(error)}\n`);
    return 1;
  }
}

function printSql(rest: readonly string[], from: string | undefined, io: CliIo): number {
  if (rest.length !== 0) throw new UsageError('sql takes no arguments but --from');
  if (from !== undefined && !/^[1-9][0-9]{0,8}$/.test(from))
    throw new UsageError('--from must be a migration version (a positive integer)');
  io.stdout.write(migrationsAsSql(SET, from === undefined ? 1 : Number(from)));
  return 0;
}

async function run(command: 'migrate' | 'status' | 'grant', db: Queryable, role: string | undefined, io: CliIo): Promise<number> {
  if (command === 'migrate') {
    const { applied } = await migrateKeyStore(db);
    io.stdout.write(applied.length === 0 ? 'up to date: nothing to apply\n' : `applied ${applied.join(', ')}\n`);
    return 0;
  }
  if (command === 'grant') {
    const sql = grantKeyStoreSql(role!);
    const { pending } = await migrationStatus(db, SET);
    if (pending.length > 0) throw new Error(`migrations ${pending.join(', ')} are pending: run drops-auth-postgres migrate first`);
    await db.exec(sql);
    io.stdout.write(`granted ${role} what the key store needs at run time\n`);
    return 0;
  }
  const { applied, pending } = await migrationStatus(db, SET);
  for (const m of keyStoreMigrations) io.stdout.write(`${applied.includes(m.version) ? 'applied' : 'pending'}  ${m.version}  ${m.name}\n`);
  if (pending.length > 0) io.stdout.write(`${pending.length} pending: run drops-auth-postgres migrate\n`);
  return pending.length > 0 ? 1 : 0;
}

/** The error's message, without anything that could be the connection string. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/postgres(ql)?:\/\/\S*/g, '<database url>');
}
