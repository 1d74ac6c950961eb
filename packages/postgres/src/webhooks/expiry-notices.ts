import { EXPIRY_NOTICES_TABLE, KEY_EVENTS_TABLE, KEYS_TABLE, WEBHOOK_OUTBOX_TABLE, WEBHOOKS_TABLE } from '../key-store-migrations.js';
import type { Queryable } from '../queryable.js';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * Queues a `key.expiring` delivery for each active key of an account with a webhook that expires
 * within 7 days, and again within 1 day, once per key and lead time whoever sweeps (the notices
 * table's primary key). A key inside both windows at its first sweep gets the 1-day notice only.
 */
const EXPIRING = `
  with due as (
    select k.id, k.account_id, k.prefix, k.name, k.expires_at, d.days
      from ${KEYS_TABLE} k
      join ${WEBHOOKS_TABLE} w on w.account_id = k.account_id
      cross join (values (7), (1)) as d (days)
      where k.revoked_at is null and k.expires_at > now() and k.expires_at <= now() + make_interval(days => d.days)
  ), noted as (
    insert into ${EXPIRY_NOTICES_TABLE} (key_id, days) select id, days from due
      on conflict do nothing returning key_id, days
  )
  insert into ${WEBHOOK_OUTBOX_TABLE} (account_id, payload)
    select distinct on (due.id) due.account_id, jsonb_build_object(
      'type', 'key.expiring',
      'timestamp', to_char(now() at time zone 'UTC', ${ISO}),
      'data', jsonb_build_object('keyId', due.id, 'prefix', due.prefix, 'name', due.name, 'days', due.days,
        'expiresAt', to_char(due.expires_at at time zone 'UTC', ${ISO})))
    from noted join due on due.id = noted.key_id and due.days = noted.days
    order by due.id, due.days
    returning 1`;

/**
 * Writes the one `'expired'` event of each key whose expiry has passed and that has none yet (the
 * same row the key store writes when a request first comes with it), so the owner hears of the
 * expiry even if the key is never tried again.
 */
const EXPIRED = `
  insert into ${KEY_EVENTS_TABLE} (account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url)
    select k.account_id, k.id, 'expired', k.prefix, k.name, k.expires_at, 'api', k.id, null, null, null
      from ${KEYS_TABLE} k
      where k.revoked_at is null and k.expires_at <= now()
        and not exists (select 1 from ${KEY_EVENTS_TABLE} e where e.key_id = k.id and e.type = 'expired')
    on conflict (key_id) where type = 'expired' do nothing
    returning 1`;

/**
 * Deletes the notice rows of keys that can never be notified again (expired, revoked, or gone),
 * at most $1 rows a call: the table stays the size of the keys still expiring, and the next sweep
 * takes the rest.
 */
const PRUNE = `
  delete from ${EXPIRY_NOTICES_TABLE} n
    using (
      select n2.key_id, n2.days
        from ${EXPIRY_NOTICES_TABLE} n2
        left join ${KEYS_TABLE} k on k.id = n2.key_id
        where k.id is null or k.revoked_at is not null or k.expires_at <= now()
        limit $1
    ) done
    where n.key_id = done.key_id and n.days = done.days
    returning 1`;

/** Options of {@link writeExpiryNotices}. */
export interface ExpiryNoticeOptions {
  /** At most this many notice rows of expired or revoked keys deleted per call. Default 1000. */
  readonly pruneLimit?: number;
}

/**
 * The periodic part of webhook events (run it from a sweeper, on any number of instances):
 * `key.expiring` notices 7 days and 1 day ahead, and the `'expired'` event of keys whose expiry
 * passed (whose delivery the outbox trigger then queues). Idempotent: each is written once per key.
 * It also forgets the notices of keys expired or revoked (`pruneLimit` rows a call). Resolves how
 * many notices and events it wrote, and how many notice rows it pruned.
 *
 * @example
 * ```ts
 * setInterval(() => void writeExpiryNotices(db).catch((err) => logger.warn({ err }, 'expiry notices')), 60_000);
 * ```
 */
export async function writeExpiryNotices(
  db: Queryable,
  options: ExpiryNoticeOptions = {},
): Promise<{ expiring: number; expired: number; pruned: number }> {
  const pruneLimit = options.pruneLimit ?? 1000;
  if (!Number.isInteger(pruneLimit) || pruneLimit < 1) throw new TypeError('writeExpiryNotices: pruneLimit must be an integer >= 1');
  const expiring = await db.query(EXPIRING);
  const expired = await db.query(EXPIRED);
  const pruned = await db.query(PRUNE, [pruneLimit]);
  return { expiring: expiring.rows.length, expired: expired.rows.length, pruned: pruned.rows.length };
}
