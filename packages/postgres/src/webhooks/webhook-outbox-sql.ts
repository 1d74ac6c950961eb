import { WEBHOOK_OUTBOX_TABLE, WEBHOOKS_TABLE } from '../key-store-migrations.js';

/** A delivery no sender holds whose time has come (alias `o`). */
const DUE = `o.failed_at is null and o.next_attempt_at <= now() and (o.locked_until is null or o.locked_until < now())`;

/**
 * Claims one due delivery of each of at most `$1` endpoints, for a lease of `$2` seconds: endpoints
 * with no attempt in flight (`busy_until`) and a closed circuit (`paused_until`), the one waiting
 * longest first. The endpoint's row is locked (SKIP LOCKED) and leased in the same statement, so two
 * senders never work on one endpoint at once: a dead endpoint holds one sender slot, whatever it
 * has queued. A row whose lease ran out (its sender was killed) is due again: at least once.
 * Answers the endpoint's lease (`lease`), which {@link RECORD_DELIVERED} and {@link RECORD_FAILED}
 * release only if it is still theirs.
 */
export const CLAIM = `
  with due as (
    select o.account_id, min(o.next_attempt_at) as waiting_since
      from ${WEBHOOK_OUTBOX_TABLE} o where ${DUE} group by o.account_id
  ),
  endpoints as (
    select w.account_id, w.url, w.secret from ${WEBHOOKS_TABLE} w join due on due.account_id = w.account_id
      where (w.busy_until is null or w.busy_until < now()) and (w.paused_until is null or w.paused_until <= now())
      order by due.waiting_since limit $1
      for update of w skip locked
  ),
  busy as (
    update ${WEBHOOKS_TABLE} w set busy_until = now() + make_interval(secs => $2)
      from endpoints e where w.account_id = e.account_id
      returning w.account_id, w.busy_until::text as lease
  )
  update ${WEBHOOK_OUTBOX_TABLE} o
    set locked_until = now() + make_interval(secs => $2), attempts = o.attempts + 1
    from endpoints e join busy b on b.account_id = e.account_id
    where o.id = (
        select o.id from ${WEBHOOK_OUTBOX_TABLE} o where o.account_id = e.account_id and ${DUE}
          order by o.next_attempt_at, o.id limit 1
      )
      and (o.locked_until is null or o.locked_until < now())
    returning o.id::text as id, o.message_id, o.account_id, o.payload::text as body, o.attempts, e.url, e.secret, b.lease`;

/**
 * The due deliveries of endpoints whose circuit is open fail without a connection: each counts an
 * attempt and moves on in the retry schedule (`$1`, seconds; past its end the delivery is dead), so
 * a delivery lives as long as its schedule whatever the endpoint does. `last_error` is left as the
 * last real attempt wrote it: the owner sees why the endpoint failed, not that it was skipped.
 */
export const SHORT_CIRCUIT = `
  update ${WEBHOOK_OUTBOX_TABLE} o
    set attempts = o.attempts + 1,
      next_attempt_at = coalesce(now() + make_interval(secs => ($1::float8[])[o.attempts + 1]), o.next_attempt_at),
      failed_at = case when ($1::float8[])[o.attempts + 1] is null then now() end
    from ${WEBHOOKS_TABLE} w
    where w.account_id = o.account_id and w.paused_until > now() and ${DUE}
    returning o.message_id, o.account_id, o.attempts, o.failed_at is not null as given_up`;

/** Releases the endpoint's lease `$2` (only if still the claim's); its circuit closes. */
const RELEASE = `busy_until = case when busy_until = $2::timestamptz then null else busy_until end`;

/** A delivered message (`$3`) goes; its endpoint (`$1`) is released and its circuit closed. */
export const RECORD_DELIVERED = `
  with delivered as (delete from ${WEBHOOK_OUTBOX_TABLE} where id = $3)
  update ${WEBHOOKS_TABLE} set ${RELEASE}, failures = 0, paused_until = null where account_id = $1`;

/**
 * A failed attempt of delivery `$3`: due again after `$4` seconds, or dead when `$4` is null, with
 * the reason `$5` shown to the owner. Its endpoint (`$1`) is released and counts one more failure in
 * a row; from `$6` on, its circuit opens for `$7` seconds, doubled at each further failure up to
 * `$8` seconds.
 */
export const RECORD_FAILED = `
  with failed as (
    update ${WEBHOOK_OUTBOX_TABLE}
      set next_attempt_at = coalesce(now() + make_interval(secs => $4::float8), next_attempt_at),
        failed_at = case when $4::float8 is null then now() end,
        locked_until = null, last_error = $5, last_error_at = now()
      where id = $3
  )
  update ${WEBHOOKS_TABLE}
    set ${RELEASE}, failures = failures + 1,
      paused_until = case when failures + 1 >= $6::int
        then now() + make_interval(secs => least($7::float8 * 2 ^ least(failures + 1 - $6::int, 30), $8::float8)) end
    where account_id = $1`;

/** Dead deliveries (out of retries) are kept this long, then deleted, a batch at a time. */
export const PRUNE_DEAD = `
  delete from ${WEBHOOK_OUTBOX_TABLE} where id in (
    select id from ${WEBHOOK_OUTBOX_TABLE} where failed_at < now() - interval '30 days' limit 1000
  )`;
