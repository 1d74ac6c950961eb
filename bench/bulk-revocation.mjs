/**
 * One UPDATE revoking every key of a table of N (default 1,000,000), with two caching instances:
 * instance B is probed with random ids every 2 ms from before the UPDATE until 15 s after its
 * revision is acknowledged, so a lost lease shows as 503s. Prints the UPDATE's time, when every
 * instance had acknowledged (from the UPDATE's start), and the probes' outcomes.
 *
 * Not part of `pnpm bench` (a million-row UPDATE takes over a minute). After `pnpm build`:
 *   node bench/bulk-revocation.mjs [N]
 * docs/revocation.md ("Bulk changes") quotes its figures. Needs BENCH_POSTGRES_URL's rights to
 * create and drop a scratch database.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { fromPgPool, KEYS_TABLE, migrateKeyStore, PostgresKeyStore } from '@drops/auth-postgres';
import { createScratchDatabase } from './scratch-database.mjs';

const N = Number(process.argv[2] ?? 1_000_000);
const idOf = (i) => createHash('sha256').update(`bulk-${i}`, 'utf8').digest('hex');
const randomId = () => createHash('sha256').update(String(Math.random())).digest('hex');

const scratch = await createScratchDatabase('bulk_revocation');
const poolA = new pg.Pool({ connectionString: scratch.url, max: 10 });
const poolB = new pg.Pool({ connectionString: scratch.url, max: 10 });
try {
  await migrateKeyStore(fromPgPool(poolA));
  await poolA.query(
    `insert into ${KEYS_TABLE} (id, account_id, prefix, created_at)
     select encode(sha256(convert_to('bulk-' || i, 'UTF8')), 'hex'), 'acct_' || (i % 100), 'hp_bulk000', now()
     from generate_series(1, $1::int) as i`,
    [N],
  );
  await poolA.query(`vacuum analyze ${KEYS_TABLE}`);
  const a = new PostgresKeyStore({ db: fromPgPool(poolA) });
  const b = new PostgresKeyStore({ db: fromPgPool(poolB) });
  // Both instances hold their lease and membership; B keeps one of the keys in memory.
  const kept = idOf(N);
  for (;;) {
    const answer = await Promise.all([a.findActive(kept), b.findActive(kept)]).catch(() => null);
    if (answer?.[0] && answer[1] && !(b.findActive(kept) instanceof Promise)) break;
    await sleep(20);
  }

  const outcomes = { refused: 0, accepted: 0, unavailable: 0 };
  let probing = true;
  const probe = (async () => {
    while (probing) {
      try {
        outcomes[(await b.findActive(randomId())) === null ? 'refused' : 'accepted']++;
      } catch {
        outcomes.unavailable++;
      }
      await sleep(2);
    }
  })();

  const started = performance.now();
  const client = await poolA.connect();
  let revision;
  try {
    await client.query('begin');
    await client.query(`update ${KEYS_TABLE} set revoked_at = now()`);
    revision = (await client.query('select drops_auth_taken_revision()::text as r')).rows[0].r;
    await client.query('commit');
  } finally {
    client.release();
  }
  const committedMs = performance.now() - started;
  for (;;) {
    const { rows } = await poolA.query('select drops_auth_revocation_pending($1) as n', [revision]);
    if (rows[0].n === 0) break;
    await sleep(5);
  }
  const acknowledgedMs = performance.now() - started;
  const keptAccepted = (await b.findActive(kept).catch(() => null)) !== null;
  await sleep(15_000); // through B's re-read of its membership and a few lease renewals
  probing = false;
  await probe;
  console.log(
    JSON.stringify({
      keys: N,
      updateMs: Math.round(committedMs),
      acknowledgedAfterCommitMs: Math.round(acknowledgedMs - committedMs),
      probesOfB: outcomes,
      keptKeyAcceptedAfterAcknowledgement: keptAccepted,
    }),
  );
  await Promise.all([a.close(), b.close()]);
} finally {
  await Promise.all([poolA.end(), poolB.end()]);
  await scratch.drop();
}
