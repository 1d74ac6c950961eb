import type { Migration } from './migration.js';
import { migrate, type MigrateResult } from './migrate.js';
import type { Queryable } from './queryable.js';
import { CHANGE_MARKERS, sqlMarker } from './lease/change-message.js';

/**
 * The migration set name of the key table in `drops_schema_migrations`.
 *
 * @example
 * ```ts
 * await migrate(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations }); // = migrateKeyStore(db)
 * ```
 */
export const KEY_STORE_NAMESPACE = 'drops_auth_keys';

/**
 * The table {@link PostgresKeyStore} keeps keys in.
 *
 * @example
 * ```ts
 * await db.query(`select count(*) from ${KEYS_TABLE} where revoked_at is null`);
 * ```
 */
export const KEYS_TABLE = 'drops_auth_keys';

/**
 * The key event log {@link PostgresKeyStore} writes beside the keys: every mint, revocation and
 * first use, in the same transaction as the change (migration 4).
 *
 * @example
 * ```ts
 * await db.query(`select type, key_id, source, at from ${KEY_EVENTS_TABLE} where account_id = $1 order by seq desc limit 20`, ['acct_1']);
 * ```
 */
export const KEY_EVENTS_TABLE = 'drops_auth_key_events';

/**
 * Revocations by value recorded before `POST /credentials/revoke` answers and carried out after
 * (migration 6): a row until its revocation is done, so none is lost to a crash. @internal
 */
export const PENDING_REVOCATIONS_TABLE = 'drops_auth_pending_revocations';
/**
 * Rate limit counts shared by every instance on one database (migration 8): the table
 * `PostgresRateLimitStore` counts in, through rate-limiter-flexible's `RateLimiterPostgres`
 * (its own schema, created here so the runtime role needs no CREATE right). @internal
 */
export const RATE_LIMITS_TABLE = 'drops_auth_rate_limits';
/**
 * Each account's webhook endpoint: its URL and `whsec_` signing secret (migration 10). The sender
 * needs the secret itself, so it is stored as it is. @internal
 */
export const WEBHOOKS_TABLE = 'drops_auth_webhooks';
/**
 * Webhook deliveries not yet made (migration 10): a row per key event of an account with an
 * endpoint, inserted by a trigger in the event's transaction, deleted once delivered (or given
 * up). `locked_until` is the lease of the one sender working on it. @internal
 */
export const WEBHOOK_OUTBOX_TABLE = 'drops_auth_webhook_outbox';
/** Expiry notices written once per key and lead time (7 and 1 days), so a sweep is idempotent (migration 10). @internal */
export const EXPIRY_NOTICES_TABLE = 'drops_auth_key_expiry_notices';
/** The trigger function that records the 'revoked' event of a plain-SQL revocation at commit (migration 10). @internal */
export const RECORD_PLAIN_REVOCATION_FUNCTION = 'drops_auth_record_plain_revocation';
/** The outbox row of a key event, as migration 10's webhook trigger writes it (migration 13's too). */
const ENQUEUE_KEY_EVENT_WEBHOOK = `insert into ${WEBHOOK_OUTBOX_TABLE} (account_id, payload)
            select w.account_id, jsonb_build_object(
              'type', 'key.' || new.type,
              'timestamp', to_char(new.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'data', jsonb_build_object(
                'keyId', new.key_id, 'prefix', new.prefix, 'name', new.name,
                'at', to_char(new.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'source', new.source, 'actor', new.actor, 'url', new.url
              ) || case
                when new.related_key_id is null then '{}'::jsonb
                when new.type = 'rolled' then jsonb_build_object('rolledTo', new.related_key_id)
                else jsonb_build_object('replaces', new.related_key_id)
              end
            )
            from ${WEBHOOKS_TABLE} w where w.account_id = new.account_id;`;

/** The trigger function that queues a webhook delivery for every key event (migration 10). @internal */
export const ENQUEUE_WEBHOOK_FUNCTION = 'drops_auth_enqueue_webhook';

/**
 * Each account's sign-out cut-off (migration 13): ID tokens of the account signed in (`auth_time`,
 * else `iat`) at or before `tokens_valid_after` are refused. Any insert, update or delete, plain SQL
 * included, is announced to every instance (`^<ms>:<account>`).
 *
 * @example
 * ```ts
 * await db.query(`update ${SESSION_CUTOFFS_TABLE} set tokens_valid_after = now() where account_id = $1`, ['acct_1']);
 * ```
 */
export const SESSION_CUTOFFS_TABLE = 'drops_auth_session_cutoffs';
/** The trigger function that announces every change of a sign-out cut-off (migration 13). @internal */
export const ANNOUNCE_SESSION_CUTOFF_FUNCTION = 'drops_auth_announce_session_cutoff';

/** The one-row table of the revocation revision counter (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). @internal */
export const REVISION_TABLE = 'drops_auth_revision';
/** Cache leases: one row per listening session of a caching instance (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md). @internal */
export const LEASES_TABLE = 'drops_auth_leases';
/**
 * The channel every change of the cached state is announced on, payload `<revision>:<change>`
 * (`lease/change-message.ts`: keys gone, minted or changed, sign-out cut-offs). Its name is from
 * when it carried revocations only. @internal
 */
export const KEY_CHANGES_CHANNEL = 'drops_auth_revocations';
/** The channel instances announce acknowledgements on, so revokers re-check at once. @internal */
export const ACKS_CHANNEL = 'drops_auth_acks';
/**
 * The SQL function every revocation goes through, operators' included:
 * `select * from drops_auth_revoke_key('<id>')` returns `(revoked, revision)` and writes a
 * `'revoked'` event with source `'operator'` (actor: the database role); then wait until
 * `select drops_auth_revocation_pending(<revision>)` is 0 (https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md).
 * To attribute it, call the eight-argument form: `drops_auth_revoke_key(id, account or null, at,
 * source, actor, ip, user_agent, url)` (the last four may be left out).
 *
 * @example
 * ```ts
 * const { rows } = await db.query(`select revoked, revision from ${REVOKE_KEY_FUNCTION}($1)`, [keyId]);
 * ```
 */
export const REVOKE_KEY_FUNCTION = 'drops_auth_revoke_key';
/**
 * How many caching instances may still accept a key revoked at `revision`: 0 means none.
 *
 * @example
 * ```ts
 * const { rows } = await db.query(`select ${REVOCATION_PENDING_FUNCTION}($1) as pending`, [revision]);
 * ```
 */
export const REVOCATION_PENDING_FUNCTION = 'drops_auth_revocation_pending';
/**
 * Takes the next revision for a change in this transaction (migration 5): the first take updates
 * the revision row (its lock, held to commit, orders revisions as commits); later ones count in a
 * transaction-local setting, and the row gets the last one at commit. Every announcing trigger
 * uses it, so a transaction that changes n keys updates the row twice, not n times (n updates
 * of one row in one transaction each walk the versions made before it: quadratic). @internal
 */
export const TAKE_REVISION_FUNCTION = 'drops_auth_take_revision';
/**
 * The revision this transaction has taken last, or the committed one if it took none: what a
 * minter or roller reads in its transaction to wait for (migration 5). @internal
 */
export const TAKEN_REVISION_FUNCTION = 'drops_auth_taken_revision';
/** The transaction-local setting holding the revisions taken since the row was last written. @internal */
const TAKEN_SETTING = 'drops_auth.revision_taken';
/**
 * The function every announcing trigger calls with its change (`<id>`, `+<id>`, `~<id>`, `*`, `!`):
 * it takes the next revision and NOTIFYs `<revision>:<change>`, for at most
 * {@link BULK_ANNOUNCEMENT_KEYS} announcements in one transaction; past that, the transaction's
 * further changes are announced as one bulk change, `<last revision>:!`, at its commit (migration 5).
 * @internal
 */
export const ANNOUNCE_CHANGE_FUNCTION = 'drops_auth_announce';
/** The transaction-local setting counting the announcements made since the row was last written. @internal */
const ANNOUNCED_SETTING = 'drops_auth.announced';
/** SQL: the announcements this transaction has made so far (0 before the first). */
const ANNOUNCED_COUNT = `coalesce(nullif(current_setting('${ANNOUNCED_SETTING}', true), ''), '0')::bigint`;
/** The trigger function that announces every change taking an active key away (migration 5). @internal */
export const ANNOUNCE_REVOCATION_FUNCTION = 'drops_auth_announce_revocation';
/**
 * The trigger function that announces a key still (or newly) active, payload
 * `<revision><marker><key id>` with the marker its trigger's argument (migration 9): `~` for an
 * active key whose expiry changed (a roll, or plain SQL; migration 14: still a member, but cached
 * copies are stale), `+` for a key that becomes active by an UPDATE (migration 11: an id or
 * account change, a revocation undone; an INSERT is announced by {@link ANNOUNCE_MINTED_FUNCTION}).
 * @internal
 */
export const ANNOUNCE_KEY_FUNCTION = 'drops_auth_announce_key';
/**
 * The statement-level trigger function that announces the keys an INSERT adds, `<revision>:+<id>`
 * with a revision of its own for each, taken in one update of the revision row, or one
 * `<revision>:!` above {@link BULK_ANNOUNCEMENT_KEYS} keys (migration 11). @internal
 */
export const ANNOUNCE_MINTED_FUNCTION = 'drops_auth_announce_minted';
/**
 * At most this many changes of keys are announced one by one in a transaction; the rest are one
 * bulk change (`<revision>:!`) at its commit (migration 5), and one INSERT of more keys than this is
 * announced as a bulk change at once (one revision, migration 11). @internal
 */
export const BULK_ANNOUNCEMENT_KEYS = 10_000;

/**
 * The history of the key table. Revoked rows stay (audit) with `revoked_at` set.
 *
 * - `id`: lowercase hex SHA-256 of the secret, the primary key: `findActive` is one index lookup,
 *   the same for unknown and revoked ids.
 * - `minted_by_*`: the login that minted the key (the ID token's `sub`, sign-in provider,
 *   `auth_time`).
 * - A partial index serves listing an account's active keys newest first.
 *
 * @example
 * ```ts
 * // With your own tooling instead of migrate(): one script that also records the versions, so
 * // migrate(), `drops-auth-postgres status` and the store recognise the schema (`drops-auth-postgres sql`):
 * const script = migrationsAsSql({ namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
 * ```
 */
export const keyStoreMigrations: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'create drops_auth_keys',
    sql: `
      create table ${KEYS_TABLE} (
        id text primary key check (id ~ '^[0-9a-f]{64}$'),
        account_id text not null,
        prefix text not null,
        name text,
        created_at timestamptz not null,
        last_used_at timestamptz,
        revoked_at timestamptz,
        minted_by_subject text,
        minted_by_sign_in_provider text,
        minted_by_auth_time timestamptz
      );
      create index ${KEYS_TABLE}_active_by_account
        on ${KEYS_TABLE} (account_id, created_at desc, id desc)
        where revoked_at is null;
    `,
  },
  {
    version: 2,
    name: 'look up active keys by id in a partial index',
    // findActive reads only this index: a revoked key is absent from it exactly like an unknown
    // one, so the two take the same work (no heap visit for either) and the same time. With the
    // primary key alone, a revoked id found its row and fetched it from the heap: a few
    // microseconds more, measurable (bench/timing.bench.mjs), an oracle that a key once existed.
    sql: `
      create unique index ${KEYS_TABLE}_active_by_id
        on ${KEYS_TABLE} (id) include (account_id)
        where revoked_at is null;
    `,
  },
  {
    version: 3,
    name: 'revocation revisions and cache leases',
    // https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md: every revocation takes the next revision (the counter row's lock orders
    // concurrent ones, so revisions commit in increasing order) and NOTIFYs it in the same
    // transaction; each caching instance holds a lease row whose expiry the database clock sets and
    // acknowledges the revisions it has applied in seen_revision.
    sql: `
      create table ${REVISION_TABLE} (
        singleton boolean primary key default true check (singleton),
        revision bigint not null
      );
      insert into ${REVISION_TABLE} (revision) values (0);
      create table ${LEASES_TABLE} (
        lease_id text primary key,
        instance_id text not null,
        expires_at timestamptz not null,
        seen_revision bigint not null
      );
      create index ${LEASES_TABLE}_by_instance on ${LEASES_TABLE} (instance_id);
      alter table ${KEYS_TABLE} add column revoked_revision bigint;

      create function ${REVOKE_KEY_FUNCTION}(key_id text, for_account text default null, at timestamptz default now())
        returns table (revoked boolean, revision bigint)
        language plpgsql volatile as $fn$
      declare
        found_id text;
        next_revision bigint;
      begin
        update ${KEYS_TABLE} k set revoked_at = at
          where k.id = key_id and (for_account is null or k.account_id = for_account) and k.revoked_at is null
          returning k.id into found_id;
        if found_id is null then
          -- Already revoked (or unknown): the revision that revoked it, for the caller to wait on.
          return query select false, k.revoked_revision from ${KEYS_TABLE} k
            where k.id = key_id and (for_account is null or k.account_id = for_account) and k.revoked_at is not null;
          return;
        end if;
        update ${REVISION_TABLE} r set revision = r.revision + 1 returning r.revision into next_revision;
        update ${KEYS_TABLE} k set revoked_revision = next_revision where k.id = key_id;
        perform pg_notify('${KEY_CHANGES_CHANNEL}', next_revision::text || ':' || key_id);
        return query select true, next_revision;
      end
      $fn$;

      create function ${REVOCATION_PENDING_FUNCTION}(revision bigint) returns integer
        language sql stable as $fn$
        select count(*)::integer from ${LEASES_TABLE} l where l.expires_at > now() and l.seen_revision < $1
      $fn$;
    `,
  },
  {
    version: 4,
    name: 'key events',
    // Every mint, revocation and first use is a row here, written in the transaction of the change
    // it records. seq orders an account's events (newest first through the index) and is the
    // cursor of GET /keys/events. The revocation function writes its event itself, so an operator's
    // SQL revocation is recorded exactly like the API's. The three-argument form keeps its
    // signature (and any grants on it): operators' calls go on working, recorded as 'operator'.
    // The eight-argument form has no defaults for its first four parameters, so no call can match
    // both forms.
    sql: `
      create table ${KEY_EVENTS_TABLE} (
        seq bigserial primary key,
        account_id text not null,
        key_id text not null,
        type text not null check (type in ('minted', 'revoked', 'first_used')),
        prefix text not null,
        name text,
        at timestamptz not null,
        source text not null check (source in ('api', 'revoke_by_value', 'github_secret_scanning', 'operator')),
        actor text,
        ip text,
        user_agent text,
        url text
      );
      create index ${KEY_EVENTS_TABLE}_by_account on ${KEY_EVENTS_TABLE} (account_id, seq desc);

      create function ${REVOKE_KEY_FUNCTION}(
        key_id text,
        for_account text,
        at timestamptz,
        source text,
        actor text default null,
        ip text default null,
        user_agent text default null,
        url text default null
      )
        returns table (revoked boolean, revision bigint)
        language plpgsql volatile as $fn$
      declare
        found_id text;
        found_account text;
        found_prefix text;
        found_name text;
        next_revision bigint;
      begin
        update ${KEYS_TABLE} k set revoked_at = ${REVOKE_KEY_FUNCTION}.at
          where k.id = ${REVOKE_KEY_FUNCTION}.key_id
            and (${REVOKE_KEY_FUNCTION}.for_account is null or k.account_id = ${REVOKE_KEY_FUNCTION}.for_account)
            and k.revoked_at is null
          returning k.id, k.account_id, k.prefix, k.name into found_id, found_account, found_prefix, found_name;
        if found_id is null then
          -- Already revoked (or unknown): the revision that revoked it, for the caller to wait on.
          return query select false, k.revoked_revision from ${KEYS_TABLE} k
            where k.id = ${REVOKE_KEY_FUNCTION}.key_id
              and (${REVOKE_KEY_FUNCTION}.for_account is null or k.account_id = ${REVOKE_KEY_FUNCTION}.for_account)
              and k.revoked_at is not null;
          return;
        end if;
        update ${REVISION_TABLE} r set revision = r.revision + 1 returning r.revision into next_revision;
        update ${KEYS_TABLE} k set revoked_revision = next_revision where k.id = found_id;
        insert into ${KEY_EVENTS_TABLE} (account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url)
          values (found_account, found_id, 'revoked', found_prefix, found_name, ${REVOKE_KEY_FUNCTION}.at,
            ${REVOKE_KEY_FUNCTION}.source, ${REVOKE_KEY_FUNCTION}.actor, ${REVOKE_KEY_FUNCTION}.ip,
            ${REVOKE_KEY_FUNCTION}.user_agent, ${REVOKE_KEY_FUNCTION}.url);
        perform pg_notify('${KEY_CHANGES_CHANNEL}', next_revision::text || ':' || found_id);
        return query select true, next_revision;
      end
      $fn$;

      create or replace function ${REVOKE_KEY_FUNCTION}(key_id text, for_account text default null, at timestamptz default now())
        returns table (revoked boolean, revision bigint)
        language sql volatile as $fn$
        select * from ${REVOKE_KEY_FUNCTION}($1, $2, $3, 'operator', session_user::text)
      $fn$;
    `,
  },
  {
    version: 5,
    name: 'announce every revoking change from a trigger',
    // Any change that takes an active key away announces it, whoever made it: the revocation
    // function, a plain UPDATE of revoked_at (one key or a whole account), a change of the key's id
    // or account, a DELETE of the row, a TRUNCATE (payload '*': drop every key). The trigger takes
    // the next revision (key row, then the revision row: the lock order of every revocation) and
    // NOTIFYs it in the change's transaction, so caching instances drop the key at commit and
    // acknowledge the revision as for the function. The function keeps its signature and identity
    // and now leaves the revision and the NOTIFY to the trigger (one announcement per key).
    // Expand only: instances built on migration 4 call the function as before.
    //
    // Revisions are taken with ${TAKE_REVISION_FUNCTION}(): the first in a transaction updates the
    // revision row (taking its lock until commit, so revisions are in commit order); the next ones
    // count in the transaction-local setting ${TAKEN_SETTING}; a deferred trigger writes the last
    // one to the row at commit (and clears the setting, so a take after SET CONSTRAINTS ... IMMEDIATE
    // updates the row again). Readers in the transaction use ${TAKEN_REVISION_FUNCTION}(); other
    // sessions see only committed rows, where the last revision is.
    //
    // Every announcing trigger calls ${ANNOUNCE_CHANGE_FUNCTION}(change): it takes the revision and
    // NOTIFYs it, for the first ${BULK_ANNOUNCEMENT_KEYS} announcements of a transaction (counted in
    // ${ANNOUNCED_SETTING}); the later ones take their revisions unannounced, and the deferred trigger
    // NOTIFYs one bulk change, `<last revision>:!`, at commit. Listeners apply a bulk change by
    // dropping every key they keep and re-reading the membership (migration 11), so a plain-SQL
    // revocation of a million keys is about 10,000 announcements, not a million: a million arriving
    // at once held every listener past its lease renewal (503s everywhere).
    sql: `
      create function ${TAKE_REVISION_FUNCTION}() returns bigint
        language plpgsql volatile as $fn$
      declare
        taken text := coalesce(current_setting('${TAKEN_SETTING}', true), '');
        next_revision bigint;
      begin
        if taken = '' then
          update ${REVISION_TABLE} r set revision = r.revision + 1 returning r.revision into next_revision;
        else
          next_revision := taken::bigint + 1;
        end if;
        perform set_config('${TAKEN_SETTING}', next_revision::text, true);
        return next_revision;
      end
      $fn$;

      create function ${TAKEN_REVISION_FUNCTION}() returns bigint
        language sql volatile as $fn$
        select coalesce(nullif(current_setting('${TAKEN_SETTING}', true), '')::bigint, (select revision from ${REVISION_TABLE}))
      $fn$;

      create function drops_auth_store_taken_revision() returns trigger
        language plpgsql volatile as $fn$
      declare
        taken text := coalesce(current_setting('${TAKEN_SETTING}', true), '');
      begin
        if taken <> '' then
          perform set_config('${TAKEN_SETTING}', '', true);
          update ${REVISION_TABLE} r set revision = taken::bigint where r.revision < taken::bigint;
          -- Changes past the announcement bound went unannounced: one bulk change covers them all.
          if ${ANNOUNCED_COUNT} > ${BULK_ANNOUNCEMENT_KEYS} then
            perform pg_notify('${KEY_CHANGES_CHANNEL}', taken || ':${CHANGE_MARKERS.bulk_change}');
          end if;
          perform set_config('${ANNOUNCED_SETTING}', '', true);
        end if;
        return null;
      end
      $fn$;
      create constraint trigger ${REVISION_TABLE}_taken_stored
        after update on ${REVISION_TABLE}
        deferrable initially deferred
        for each row execute function drops_auth_store_taken_revision();

      create function ${ANNOUNCE_CHANGE_FUNCTION}(change text) returns bigint
        language plpgsql volatile as $fn$
      declare
        next_revision bigint := ${TAKE_REVISION_FUNCTION}();
        announced bigint := ${ANNOUNCED_COUNT} + 1;
      begin
        perform set_config('${ANNOUNCED_SETTING}', announced::text, true);
        if announced <= ${BULK_ANNOUNCEMENT_KEYS} then
          perform pg_notify('${KEY_CHANGES_CHANNEL}', next_revision::text || ':' || change);
        end if;
        return next_revision;
      end
      $fn$;

      create function ${ANNOUNCE_REVOCATION_FUNCTION}() returns trigger
        language plpgsql volatile as $fn$
      declare
        next_revision bigint;
      begin
        if tg_level = 'STATEMENT' then
          perform ${ANNOUNCE_CHANGE_FUNCTION}(${sqlMarker('keys_truncated')});
          return null;
        end if;
        next_revision := ${ANNOUNCE_CHANGE_FUNCTION}(old.id);
        if tg_op = 'UPDATE' and new.revoked_at is not null then
          new.revoked_revision := next_revision;
        end if;
        return case when tg_op = 'DELETE' then old else new end;
      end
      $fn$;

      create trigger ${KEYS_TABLE}_revoked
        before update of revoked_at, id, account_id on ${KEYS_TABLE}
        for each row
        when (old.revoked_at is null and (new.revoked_at is not null or new.id <> old.id or new.account_id <> old.account_id))
        execute function ${ANNOUNCE_REVOCATION_FUNCTION}();
      create trigger ${KEYS_TABLE}_deleted
        after delete on ${KEYS_TABLE}
        for each row when (old.revoked_at is null)
        execute function ${ANNOUNCE_REVOCATION_FUNCTION}();
      create trigger ${KEYS_TABLE}_truncated
        after truncate on ${KEYS_TABLE}
        for each statement
        execute function ${ANNOUNCE_REVOCATION_FUNCTION}();

      create or replace function ${REVOKE_KEY_FUNCTION}(
        key_id text,
        for_account text,
        at timestamptz,
        source text,
        actor text default null,
        ip text default null,
        user_agent text default null,
        url text default null
      )
        returns table (revoked boolean, revision bigint)
        language plpgsql volatile as $fn$
      declare
        found_id text;
        found_account text;
        found_prefix text;
        found_name text;
        found_revision bigint;
      begin
        -- The trigger takes the revision, sets revoked_revision and NOTIFYs.
        update ${KEYS_TABLE} k set revoked_at = ${REVOKE_KEY_FUNCTION}.at
          where k.id = ${REVOKE_KEY_FUNCTION}.key_id
            and (${REVOKE_KEY_FUNCTION}.for_account is null or k.account_id = ${REVOKE_KEY_FUNCTION}.for_account)
            and k.revoked_at is null
          returning k.id, k.account_id, k.prefix, k.name, k.revoked_revision
          into found_id, found_account, found_prefix, found_name, found_revision;
        if found_id is null then
          -- Already revoked (or unknown): the revision that revoked it, for the caller to wait on.
          return query select false, k.revoked_revision from ${KEYS_TABLE} k
            where k.id = ${REVOKE_KEY_FUNCTION}.key_id
              and (${REVOKE_KEY_FUNCTION}.for_account is null or k.account_id = ${REVOKE_KEY_FUNCTION}.for_account)
              and k.revoked_at is not null;
          return;
        end if;
        insert into ${KEY_EVENTS_TABLE} (account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url)
          values (found_account, found_id, 'revoked', found_prefix, found_name, ${REVOKE_KEY_FUNCTION}.at,
            ${REVOKE_KEY_FUNCTION}.source, ${REVOKE_KEY_FUNCTION}.actor, ${REVOKE_KEY_FUNCTION}.ip,
            ${REVOKE_KEY_FUNCTION}.user_agent, ${REVOKE_KEY_FUNCTION}.url);
        return query select true, found_revision;
      end
      $fn$;
    `,
  },
  {
    version: 6,
    name: 'pending revocations by value',
    // One row per POST /credentials/revoke, written before it answers and deleted once its keys
    // are revoked: the answer's time does not depend on what the keys were, and a crash between
    // the two leaves the row for the next process. The event columns are those of the 'revoked'
    // events it will write.
    sql: `
      create table ${PENDING_REVOCATIONS_TABLE} (
        id bigserial primary key,
        key_ids text[] not null,
        at timestamptz not null,
        source text not null check (source in ('api', 'revoke_by_value', 'github_secret_scanning', 'operator')),
        actor text,
        ip text,
        user_agent text,
        url text
      );
    `,
  },
  {
    version: 7,
    name: 'key expiry',
    // expires_at null: the key never expires. The partial index of active keys by id now also
    // holds it, so findActive stays an index-only lookup (the same work for unknown and revoked
    // ids). An expired key stays "active" (not revoked): instances refuse it in memory by the
    // database's clock, and the first to notice writes its one 'expired' event (the partial unique
    // index makes that insert idempotent across instances). Expand only: instances built on
    // migration 6 read keys as before (and accept expiring ones until they are upgraded).
    sql: `
      alter table ${KEYS_TABLE} add column expires_at timestamptz null;
      drop index ${KEYS_TABLE}_active_by_id;
      create unique index ${KEYS_TABLE}_active_by_id
        on ${KEYS_TABLE} (id) include (account_id, expires_at)
        where revoked_at is null;
      alter table ${KEY_EVENTS_TABLE} drop constraint ${KEY_EVENTS_TABLE}_type_check;
      alter table ${KEY_EVENTS_TABLE} add constraint ${KEY_EVENTS_TABLE}_type_check
        check (type in ('minted', 'revoked', 'first_used', 'expired'));
      create unique index ${KEY_EVENTS_TABLE}_expired_once on ${KEY_EVENTS_TABLE} (key_id) where type = 'expired';
    `,
  },
  {
    version: 8,
    name: 'rate limit counts shared by every instance',
    // rate-limiter-flexible's RateLimiterPostgres schema (key = '<scope>:<subject>', expire in ms
    // since the epoch), made here so the library never runs DDL (tableCreated: true). The index
    // serves its sweep of rows expired an hour ago.
    sql: `
      create table ${RATE_LIMITS_TABLE} (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );
      create index ${RATE_LIMITS_TABLE}_expire on ${RATE_LIMITS_TABLE} (expire);
    `,
  },
  {
    version: 9,
    name: 'roll',
    // A roll mints a key that replaces another (replaces) and marks the old one (rolled_to, set
    // once: a key is rolled at most once; the unique index says so too). Events name the other key
    // of a roll (related_key_id): the 'rolled' event of the old key, the 'minted' event of the new.
    // Shortening a key's expiry takes the next revision and announces `<revision>:~<id>`: the key
    // changed but is still active, so caching instances drop their copy and read the new expiry
    // (the key stays in their membership, migration 11), and the roller waits for their
    // acknowledgements. Expand only: instances built on migration 8 read keys as before (and learn
    // a shortened expiry when their cache next reads the key).
    sql: `
      alter table ${KEYS_TABLE} add column replaces text null, add column rolled_to text null;
      create unique index ${KEYS_TABLE}_rolled_once on ${KEYS_TABLE} (replaces) where replaces is not null;
      alter table ${KEY_EVENTS_TABLE} add column related_key_id text null;
      alter table ${KEY_EVENTS_TABLE} drop constraint ${KEY_EVENTS_TABLE}_type_check;
      alter table ${KEY_EVENTS_TABLE} add constraint ${KEY_EVENTS_TABLE}_type_check
        check (type in ('minted', 'revoked', 'first_used', 'expired', 'rolled'));
      -- One function for every announcement of a key that is (still) active, the marker its
      -- trigger's argument: '~' here, '+' in migration 11. Migration 5's revocation function is
      -- not this one: it announces old.id (the id taken away), runs for DELETE and TRUNCATE too
      -- (no new row; '*' at statement level), sets new.revoked_revision, and returns old for a
      -- DELETE; folding it in would be a branch per marker, not one body.
      create function ${ANNOUNCE_KEY_FUNCTION}() returns trigger
        language plpgsql volatile as $fn$
      begin
        perform ${ANNOUNCE_CHANGE_FUNCTION}(tg_argv[0] || new.id);
        return new;
      end
      $fn$;
      create trigger ${KEYS_TABLE}_expiry_shortened
        before update of expires_at on ${KEYS_TABLE}
        for each row
        when (old.revoked_at is null and new.revoked_at is null and new.id = old.id and new.account_id = old.account_id
          and new.expires_at is not null and (old.expires_at is null or new.expires_at < old.expires_at))
        execute function ${ANNOUNCE_KEY_FUNCTION}(${sqlMarker('key_changed')});
    `,
  },
  {
    version: 10,
    name: 'webhooks and their outbox',
    // The outbox row is written by a trigger on the event log, so every path that writes an event
    // (the API, revocation by value, secret scanning, plain SQL drops_auth_revoke_key, an expiry
    // noticed) queues its delivery in the same transaction, by construction. first_used is not
    // sent. The payload is the Standard Webhooks body, built once here: { type, timestamp, data }
    // with data the event's columns named as GET /keys/events names them (related_key_id is
    // rolledTo on a 'rolled' event, replaces on a 'minted' one; a column a later migration adds
    // is not sent until it is named here), never ip or user agent, never a secret. Deleting the
    // endpoint deletes what it had pending (cascade). A delivery out of retries stays, dead
    // (failed_at set: never sent again), for 30 days, so its failure can be seen (GET /keys/webhook):
    // every failed attempt records why in last_error (the sender's short classification, such as
    // 'answered 500' or 'timed out': never the answer, a header or the secret) and when in
    // last_error_at. Expiry notices are written by the sweeper:
    // one row per key and lead time, so the 7- and 1-day notices go once whoever sweeps.
    // A plain UPDATE of revoked_at now records its 'revoked' event too (at commit, see below).
    sql: `
      create table ${WEBHOOKS_TABLE} (
        account_id text primary key,
        url text not null,
        secret text not null,
        updated_at timestamptz not null default now()
      );
      create table ${WEBHOOK_OUTBOX_TABLE} (
        id bigserial primary key,
        account_id text not null references ${WEBHOOKS_TABLE} (account_id) on delete cascade,
        payload jsonb not null,
        created_at timestamptz not null default now(),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        locked_until timestamptz,
        failed_at timestamptz,
        last_error text,
        last_error_at timestamptz
      );
      create index ${WEBHOOK_OUTBOX_TABLE}_due on ${WEBHOOK_OUTBOX_TABLE} (next_attempt_at) where failed_at is null;
      create index ${WEBHOOK_OUTBOX_TABLE}_dead on ${WEBHOOK_OUTBOX_TABLE} (failed_at) where failed_at is not null;
      create index ${WEBHOOK_OUTBOX_TABLE}_by_account on ${WEBHOOK_OUTBOX_TABLE} (account_id);
      create table ${EXPIRY_NOTICES_TABLE} (
        key_id text not null,
        days integer not null,
        primary key (key_id, days)
      );

      create function ${ENQUEUE_WEBHOOK_FUNCTION}() returns trigger
        language plpgsql as $fn$
      begin
        if new.type <> 'first_used' then
          ${ENQUEUE_KEY_EVENT_WEBHOOK}
        end if;
        return null;
      end
      $fn$;
      create trigger ${KEY_EVENTS_TABLE}_webhook after insert on ${KEY_EVENTS_TABLE}
        for each row execute function ${ENQUEUE_WEBHOOK_FUNCTION}();

      -- A plain UPDATE of revoked_at (no drops_auth_revoke_key) wrote no event: at commit, a key
      -- revoked in the transaction without its 'revoked' event gets one (source 'operator', actor
      -- the database role), so the log, and the owner's webhook, hear of every revocation. Deferred,
      -- so the function's own event (written after its UPDATE) is seen and not doubled.
      create function ${RECORD_PLAIN_REVOCATION_FUNCTION}() returns trigger
        language plpgsql as $fn$
      begin
        insert into ${KEY_EVENTS_TABLE} (account_id, key_id, type, prefix, name, at, source, actor, ip, user_agent, url)
          select k.account_id, k.id, 'revoked', k.prefix, k.name, k.revoked_at, 'operator', session_user::text, null, null, null
            from ${KEYS_TABLE} k
            where k.id = new.id and k.revoked_at is not null
              and not exists (select 1 from ${KEY_EVENTS_TABLE} e where e.key_id = k.id and e.type = 'revoked');
        return null;
      end
      $fn$;
      -- Its lookup of the key's 'revoked' event runs at every revocation's commit: by index, not
      -- by a scan of every event ever written.
      create index ${KEY_EVENTS_TABLE}_revoked_by_key on ${KEY_EVENTS_TABLE} (key_id) where type = 'revoked';
      create constraint trigger ${KEYS_TABLE}_revoked_event
        after update of revoked_at on ${KEYS_TABLE}
        deferrable initially deferred
        for each row when (old.revoked_at is null and new.revoked_at is not null)
        execute function ${RECORD_PLAIN_REVOCATION_FUNCTION}();
    `,
  },
  {
    version: 11,
    name: 'announce every key that becomes active',
    // https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md: every instance holds
    // the ids of all active keys under its lease, so a mint (or any change that makes a key active)
    // takes the next revision and NOTIFYs `<revision>:+<id>` in its transaction, as revocations do;
    // the minter, which reads the revision in its transaction (it holds the counter row's lock),
    // waits for the instances' acknowledgements of it.
    //
    // An INSERT is announced once per statement (its transition table): each new key takes its
    // own revision (${TAKE_REVISION_FUNCTION}, migration 5: one update of the revision row per
    // transaction) and is NOTIFYed with it, in order, so listeners apply every one (they skip a
    // revision already applied).
    // Above BULK_ANNOUNCEMENT_KEYS (10,000) keys the statement takes one revision and NOTIFYs
    // `<revision>:!` instead (a bulk change): a listener then looks every id up in the database
    // until it has re-read the membership in the background. A million announcements at once held
    // the listeners' sessions past their renewal timeout: every instance lost its lease (503s).
    //
    // An UPDATE that makes a key active is announced per row with migration 9's function (marker
    // '+'), AFTER, so it runs after migration 5's BEFORE trigger: an account or id change announces
    // the old id gone, then the (new) id active, in that order. Expand only: instances built on
    // migration 8 ignore '+'.
    sql: `
      create function ${ANNOUNCE_MINTED_FUNCTION}() returns trigger
        language plpgsql volatile as $fn$
      declare
        minted_count bigint;
        minted_id text;
      begin
        select count(*) into minted_count from minted where revoked_at is null;
        if minted_count = 0 then
          return null;
        end if;
        if minted_count > ${BULK_ANNOUNCEMENT_KEYS} then
          perform ${ANNOUNCE_CHANGE_FUNCTION}(${sqlMarker('bulk_change')});
          return null;
        end if;
        for minted_id in select id from minted where revoked_at is null loop
          perform ${ANNOUNCE_CHANGE_FUNCTION}(${sqlMarker('key_minted')} || minted_id);
        end loop;
        return null;
      end
      $fn$;
      create trigger ${KEYS_TABLE}_minted
        after insert on ${KEYS_TABLE}
        referencing new table as minted
        for each statement
        execute function ${ANNOUNCE_MINTED_FUNCTION}();
      create trigger ${KEYS_TABLE}_activated
        after update of revoked_at, id, account_id on ${KEYS_TABLE}
        for each row
        when (new.revoked_at is null and (old.revoked_at is not null or new.id <> old.id or new.account_id <> old.account_id))
        execute function ${ANNOUNCE_KEY_FUNCTION}(${sqlMarker('key_minted')});
    `,
  },
  {
    version: 12,
    name: 'webhook endpoints take turns; random message ids',
    // https://github.com/drops-dev/drops-auth/blob/main/docs/webhooks.md, "Fair between accounts": an endpoint has at most one attempt in flight
    // (busy_until, the lease of the sender making it), and a circuit (failures in a row; paused_until
    // while it is open), so one account's dead endpoint holds one sender slot at most, and rarely.
    // The sender claims endpoints (FOR UPDATE SKIP LOCKED on this row), then one due delivery of each.
    // A delivery's webhook-id is drawn at random when it is queued (base64url of a v4 UUID's 16
    // bytes; 122 random bits): a counter shared by every account would let any account count the
    // others' deliveries. Rows already queued keep the id they may have been sent with (msg_<id>).
    // Expand only: a sender of migration 11 claims by row and names messages msg_<id>, as before.
    sql: `
      alter table ${WEBHOOKS_TABLE}
        add column busy_until timestamptz,
        add column failures integer not null default 0,
        add column paused_until timestamptz;
      alter table ${WEBHOOK_OUTBOX_TABLE} add column message_id text;
      update ${WEBHOOK_OUTBOX_TABLE} set message_id = 'msg_' || id;
      alter table ${WEBHOOK_OUTBOX_TABLE}
        alter column message_id set default
          'msg_' || translate(rtrim(encode(uuid_send(gen_random_uuid()), 'base64'), '='), '+/', '-_'),
        alter column message_id set not null;
      create index ${WEBHOOK_OUTBOX_TABLE}_due_by_account on ${WEBHOOK_OUTBOX_TABLE} (account_id, next_attempt_at, id)
        where failed_at is null;
    `,
  },
  {
    version: 13,
    name: 'sign-out cut-offs',
    // https://github.com/drops-dev/drops-auth/blob/main/docs/revocation.md#signing-out-everywhere: an
    // account's cut-off is kept in every instance's memory under its lease, with the key membership,
    // so an ID token costs no query. Every change of a row, whoever makes it (DELETE /sessions, a
    // plain UPDATE of one row or of many), takes the next revision and is announced like a
    // revocation (past BULK_ANNOUNCEMENT_KEYS in a transaction, as one bulk change: instances
    // re-read), and DELETE /sessions waits for the acknowledgements. The payload carries the cut-off
    // in ms since the epoch (empty: the row went), so applying it needs no query. A TRUNCATE is a
    // bulk change. 'sessions_revoked' events name no key (key_id and prefix empty). Expand only:
    // instances built on migration 12 ignore the new marker (they do not refuse signed-out tokens
    // until upgraded).
    sql: `
      create table ${SESSION_CUTOFFS_TABLE} (
        account_id text primary key,
        tokens_valid_after timestamptz not null
      );
      alter table ${KEY_EVENTS_TABLE} drop constraint ${KEY_EVENTS_TABLE}_type_check;
      alter table ${KEY_EVENTS_TABLE} add constraint ${KEY_EVENTS_TABLE}_type_check
        check (type in ('minted', 'revoked', 'first_used', 'expired', 'rolled', 'sessions_revoked'));

      create function ${ANNOUNCE_SESSION_CUTOFF_FUNCTION}() returns trigger
        language plpgsql volatile as $fn$
      begin
        if tg_level = 'STATEMENT' then
          perform ${ANNOUNCE_CHANGE_FUNCTION}(${sqlMarker('bulk_change')});
          return null;
        end if;
        if tg_op = 'DELETE' or (tg_op = 'UPDATE' and new.account_id <> old.account_id) then
          perform ${ANNOUNCE_CHANGE_FUNCTION}(${sqlMarker('session_cutoff')} || ':' || old.account_id);
        end if;
        if tg_op <> 'DELETE' then
          perform ${ANNOUNCE_CHANGE_FUNCTION}(
            ${sqlMarker('session_cutoff')} || floor(extract(epoch from new.tokens_valid_after) * 1000)::bigint::text || ':' || new.account_id
          );
        end if;
        return null;
      end
      $fn$;
      create trigger ${SESSION_CUTOFFS_TABLE}_announced
        after insert or update or delete on ${SESSION_CUTOFFS_TABLE}
        for each row execute function ${ANNOUNCE_SESSION_CUTOFF_FUNCTION}();
      create trigger ${SESSION_CUTOFFS_TABLE}_truncated
        after truncate on ${SESSION_CUTOFFS_TABLE}
        for each statement execute function ${ANNOUNCE_SESSION_CUTOFF_FUNCTION}();

      -- A sign-out is sent as sessions.revoked, with who and from where (the owner needs the
      -- address to tell their own sign-out from an intruder's); key events as before.
      create or replace function ${ENQUEUE_WEBHOOK_FUNCTION}() returns trigger
        language plpgsql as $fn$
      begin
        if new.type = 'sessions_revoked' then
          insert into ${WEBHOOK_OUTBOX_TABLE} (account_id, payload)
            select w.account_id, jsonb_build_object(
              'type', 'sessions.revoked',
              'timestamp', to_char(new.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'data', jsonb_build_object(
                'tokensValidAfter', to_char(new.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                'source', new.source, 'actor', new.actor, 'ip', new.ip
              )
            )
            from ${WEBHOOKS_TABLE} w where w.account_id = new.account_id;
        elsif new.type <> 'first_used' then
          ${ENQUEUE_KEY_EVENT_WEBHOOK}
        end if;
        return null;
      end
      $fn$;
    `,
  },
  {
    version: 14,
    name: 'announce every change of an active key expiry',
    // Migration 9 announced an active key's expiry only when it got shorter (a roll): an expiry
    // lengthened or cleared in plain SQL (an operator giving an expired key another hour) left
    // every running instance refusing the key from the copy it held, while an instance started
    // afterwards accepted it. Any change of expires_at on a key active before and after is now
    // announced `<revision>:~<id>`, so every instance drops its copy and reads the new expiry.
    // Expand only: instances of every version already apply the marker.
    sql: `
      drop trigger ${KEYS_TABLE}_expiry_shortened on ${KEYS_TABLE};
      create trigger ${KEYS_TABLE}_expiry_changed
        before update of expires_at on ${KEYS_TABLE}
        for each row
        when (old.revoked_at is null and new.revoked_at is null and new.id = old.id and new.account_id = old.account_id
          and new.expires_at is distinct from old.expires_at)
        execute function ${ANNOUNCE_KEY_FUNCTION}(${sqlMarker('key_changed')});
    `,
  },
]);

/**
 * Creates or updates the key table: {@link migrate} with {@link keyStoreMigrations}. Run it once at
 * start-up, before the first request; safe when several instances start at once.
 *
 * @example
 * ```ts
 * const db = fromPgPool(pool);
 * await migrateKeyStore(db);
 * const store = new PostgresKeyStore({ db });
 * ```
 */
export function migrateKeyStore(db: Queryable): Promise<MigrateResult> {
  return migrate(db, { namespace: KEY_STORE_NAMESPACE, migrations: keyStoreMigrations });
}
