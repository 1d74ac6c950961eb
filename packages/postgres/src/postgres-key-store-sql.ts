import type { KeyEvent, KeyEventContext, KeyEventSource, KeyEventType, NewKeyRecord } from '@drops/auth';
import { keyColumns, newKeyValues } from './key-columns.js';
import {
  KEY_EVENTS_TABLE,
  KEYS_TABLE,
  REVOKE_KEY_FUNCTION,
  SESSION_CUTOFFS_TABLE,
  TAKEN_REVISION_FUNCTION,
} from './key-store-migrations.js';
import { namedStatement, type Placeholder } from './named-statement.js';

/**
 * First half of the two-int advisory lock key that serialises one account's mints, rolls and
 * revoke-alls (the second is a hash of the account id). The two-int key space is apart from
 * `migrate()`'s bigint lock.
 */
const ACCOUNT_KEYS_LOCK_CLASS = 0x6b657973; // 'keys'

const EVENT_COLUMNS = 'account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url';
const MINT_EVENT_COLUMNS = `${EVENT_COLUMNS}, related_key_id`;
/** The fields of an event's context, in the order of the last five of {@link EVENT_COLUMNS}. */
const EVENT_CONTEXT_FIELDS = ['source', 'actor', 'ip', 'userAgent', 'url'] as const satisfies readonly (keyof KeyEventContext)[];

/** An event context's values in a named statement: a parameter per field, named for it. */
function eventContextValues(p: Placeholder): string {
  return EVENT_CONTEXT_FIELDS.map((f) => `${p(f)}::text`).join(', ');
}

/** Every statement of {@link PostgresKeyStore}. @internal */
export const SQL = {
  // The key and its 'minted' event: one statement, so one transaction.
  create: namedStatement(
    (p) => `with k as (
      insert into ${KEYS_TABLE} (${keyColumns('new')}) values (${newKeyValues(p)})
      returning id, account_id, prefix, name, created_at
    )
    insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
    select account_id, id, 'minted', prefix, name, created_at, ${eventContextValues(p)} from k`,
  ),
  // After a mint, in its transaction: the revision its announcement took (migration 11's trigger
  // took the counter row's lock, so this is ours), for the store to wait on.
  mintRevision: `select ${TAKEN_REVISION_FUNCTION}()::text as revision`,
  // Mints, rolls and revoke-alls of one account take turns on this lock (transaction-scoped), so a
  // statement that starts once the lock is held (the count below, the keys revokeAll locks) sees
  // every earlier one committed. It is always the transaction's first lock: no deadlock.
  lockAccountKeys: `select pg_advisory_xact_lock(${ACCOUNT_KEYS_LOCK_CLASS}, hashtext($1))`,
  // Insert only below the limit (the count reads the partial index of active keys by account),
  // with its 'minted' event when it inserts. `replaces`: the key a roll replaces, else null.
  createWithinLimit: namedStatement(
    (p) => `with k as (
      insert into ${KEYS_TABLE} (${keyColumns('new')}, replaces)
      select ${newKeyValues(p)}, ${p('replaces')}::text
      where (select count(*) from ${KEYS_TABLE} where account_id = ${p('account_id')}::text and revoked_at is null) < ${p('maxActive')}::int
      returning id, account_id, prefix, name, created_at, replaces
    ), minted as (
      insert into ${KEY_EVENTS_TABLE} (${MINT_EVENT_COLUMNS})
      select account_id, id, 'minted', prefix, name, created_at, ${eventContextValues(p)}, replaces from k
    )
    select id from k`,
  ),
  // The key a roll replaces, locked: not the account's, revoked or expired (by $3, the store's
  // clock) is no row; rolled_to says whether it was rolled before.
  lockRolledKey: `select rolled_to, expires_at is not null and expires_at <= $3::timestamptz as expired
    from ${KEYS_TABLE} where id = $1 and account_id = $2 and revoked_at is null for update`,
  // The old key of a roll: its expiry at the end of the grace (never later), rolled_to, and its
  // 'rolled' event naming the new key. A shorter expiry fires the trigger of migration 9 (a new
  // revision, announced), in this transaction.
  rollOld: `with k as (
      update ${KEYS_TABLE} set expires_at = least(coalesce(expires_at, $2::timestamptz), $2::timestamptz), rolled_to = $3::text
      where id = $1::text
      returning id, account_id, prefix, name, expires_at
    ), rolled as (
      insert into ${KEY_EVENTS_TABLE} (${MINT_EVENT_COLUMNS})
      select account_id, id, 'rolled', prefix, name, $4::timestamptz, $5::text, $6::text, $7::text, $8::text, $9::text, $3::text from k
    )
    select expires_at from k`,
  // Read after rollOld in its transaction: the revision its announcement took (the row is locked
  // by it), for the roller to wait on.
  currentRevision: `select ${TAKEN_REVISION_FUNCTION}()::text as revision`,
  // Every active key of one account, locked in id order (as lockKeys), for DELETE /keys: read once
  // the account lock is held, so a mint or roll is wholly before it (its key is here) or after it.
  lockAccountActiveKeys: `select id from ${KEYS_TABLE} where account_id = $1 and revoked_at is null order by id for update`,
  // The hot path: one lookup in the partial index of active keys (migration 2), which holds
  // account_id and expires_at: revoked and unknown ids take this same query and the same work. An
  // expiring key's answer carries the database's time, which keeps the store's clock on it.
  findActive: `select ${keyColumns('active')},
      case when expires_at is not null then extract(epoch from clock_timestamp()) * 1000 end as database_ms
    from ${KEYS_TABLE} where id = $1 and revoked_at is null`,
  // The key's one 'expired' event, at its expiry: a second insert (another instance's) meets the
  // partial unique index of migration 7 and does nothing.
  recordExpired: `insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
    select k.account_id, k.id, 'expired', k.prefix, k.name, k.expires_at, 'api', k.id, $2::text, $3::text, null
    from ${KEYS_TABLE} k where k.id = $1 and k.expires_at is not null
    on conflict (key_id) where type = 'expired' do nothing`,
  list: `select ${keyColumns('listed')} from ${KEYS_TABLE}
    where account_id = $1 and revoked_at is null order by created_at desc, id desc`,
  // Every revocation takes this path: revoked_at, a new revision, its NOTIFY and the 'revoked'
  // event, one transaction.
  revoke: `select revoked, revision from ${REVOKE_KEY_FUNCTION}($2, $1, $3, $4, $5, $6, $7, $8)`,
  // Before a batch of revocations: its keys locked in id order, so the batch never waits for a key
  // while it holds the revision row (every revocation locks its key, then that row): no deadlock
  // with single revocations, other batches or last-use writes (which lock in the same order).
  lockKeys: `select id from ${KEYS_TABLE} where id = any($1::text[]) order by id for update`,
  // One row per id that is a key: revoked now (true) or before (false), and the revision to wait for.
  revokeMany: `select r.id, f.revoked, f.revision
    from unnest($1::text[]) with ordinality as r(id, n)
    cross join lateral ${REVOKE_KEY_FUNCTION}(r.id, null, $2::timestamptz, $3::text, $4::text, $5::text, $6::text, $7::text) f
    order by r.n`,
  // Sign-out everywhere: the account's cut-off moved forward (never back; the trigger of migration
  // 13 takes a revision and announces it) and its 'sessions_revoked' event, naming no key.
  signOut: `with cut as (
      insert into ${SESSION_CUTOFFS_TABLE} as c (account_id, tokens_valid_after) values ($1, $2)
      on conflict (account_id) do update set tokens_valid_after = greatest(c.tokens_valid_after, excluded.tokens_valid_after)
      returning tokens_valid_after
    ), logged as (
      insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
      values ($1, '', 'sessions_revoked', '', null, $2, $3::text, $4::text, $5::text, $6::text, $7::text)
    )
    select tokens_valid_after from cut`,
  // The account's cut-off, when memory cannot answer (no cache, or stale after a bulk change).
  sessionCutoff: `select floor(extract(epoch from tokens_valid_after) * 1000)::bigint::text as ms
    from ${SESSION_CUTOFFS_TABLE} where account_id = $1`,
  // An account's events, newest first, through the (account_id, seq desc) index; seq below the cursor.
  // Ordered by the column, qualified: a bare `seq` would be the text output column ("9" > "12").
  listEvents: `select seq::text as seq, key_id, type, prefix, name, at, source, actor, ip, user_agent, url, related_key_id
    from ${KEY_EVENTS_TABLE}
    where account_id = $1 and seq < coalesce($2::bigint, 9223372036854775807)
    order by ${KEY_EVENTS_TABLE}.seq desc limit $3`,
  // First uses: with the keys of the batch locked (lockKeys), the rows still without a last use get
  // their 'first_used' event; the same statement writes the times, forward only (a use older than
  // the one stored changes nothing). Both parts read the rows as they were before it.
  recordUses: `with u as (
      select * from unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[]) as u(id, at, ip, user_agent)
    ), first_used as (
      insert into ${KEY_EVENTS_TABLE} (${EVENT_COLUMNS})
      select k.account_id, k.id, 'first_used', k.prefix, k.name, u.at, 'api', k.id, u.ip, u.user_agent, null
      from u join ${KEYS_TABLE} k on k.id = u.id
      where k.last_used_at is null
    )
    update ${KEYS_TABLE} as k set last_used_at = u.at
    from u
    where k.id = u.id and (k.last_used_at is null or k.last_used_at < u.at)`,
} as const;

/** What a store writes when a caller gives no event context: the API, no actor known. @internal */
export const UNATTRIBUTED: KeyEventContext = { source: 'api', actor: null, ip: null, userAgent: null, url: null };

/** The `'minted'` event's context: the one given, else the API with the minting subject as actor. */
export function mintedContext(key: NewKeyRecord, event: KeyEventContext | undefined): KeyEventContext {
  return event ?? { ...UNATTRIBUTED, actor: key.provenance?.subject ?? null };
}

/** An event context's values as five positional parameters, in the order of the last five of {@link EVENT_COLUMNS}. */
export function eventParams(event: KeyEventContext): unknown[] {
  return EVENT_CONTEXT_FIELDS.map((f) => event[f]);
}

export interface EventRow {
  seq: string;
  key_id: string;
  type: KeyEventType;
  prefix: string;
  name: string | null;
  at: Date;
  source: KeyEventSource;
  actor: string | null;
  ip: string | null;
  user_agent: string | null;
  url: string | null;
  related_key_id: string | null;
}

export function eventOf(row: EventRow): KeyEvent {
  const event: KeyEvent = {
    type: row.type,
    keyId: row.key_id,
    prefix: row.prefix,
    name: row.name,
    at: new Date(row.at),
    source: row.source,
    actor: row.actor,
    ip: row.ip,
    userAgent: row.user_agent,
    url: row.url,
  };
  return row.related_key_id === null ? event : { ...event, relatedKeyId: row.related_key_id };
}
